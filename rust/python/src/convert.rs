//! Conversions shared by every game's classes: integers and numbers as Python gives them,
//! seeds, JSON values and record text, bot specs.

use std::hash::BuildHasher;
use std::marker::PhantomData;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyInt, PyString};

use crate::errors::IndigoError;

/// Python's `json` module, imported once.
pub(crate) fn json_module(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static JSON: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    JSON.get_or_try_init(py, || Ok(py.import("json")?.unbind()))
        .map(|m| m.bind(py))
}

/// A JSON value as the Python data `json.loads` makes of it.
pub(crate) fn json_to_py<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    json_module(py)?.call_method1("loads", (value.to_string(),))
}

/// `obj` as a Python int if it has one (`__index__`: numpy integers, bools), else the
/// `TypeError` Python raises.
pub(crate) fn as_int<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyInt>> {
    static INDEX: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    if let Ok(int) = obj.cast::<PyInt>() {
        return Ok(int.clone());
    }
    let index = INDEX.get_or_try_init(obj.py(), || {
        Ok::<_, PyErr>(obj.py().import("operator")?.getattr("index")?.unbind())
    })?;
    Ok(index.bind(obj.py()).call1((obj,))?.cast_into::<PyInt>()?)
}

/// A Python int (or any `__index__` value) as `i64`, clamped, with the value as given for
/// messages: an int too large for `i64` is out of every range we check, so it fails that
/// range check with a `ValueError` subclass rather than an `OverflowError`, and the refusal
/// shows the number the caller gave ([`Int::refusal`]), not the clamped one.
#[derive(Clone, Copy)]
pub(crate) struct Int(pub(crate) i64, pub(crate) Given);

/// The int as given, when it is not the clamped `i64`.
#[derive(Clone, Copy)]
pub(crate) enum Given {
    Fits,
    Wide(i128),
    Beyond { negative: bool },
}

impl Int {
    /// An int the caller gave exactly (a default).
    pub(crate) const fn new(n: i64) -> Int {
        Int(n, Given::Fits)
    }

    /// `message`, its clamped number replaced by the number as given.
    pub(crate) fn refusal(self, message: &str) -> String {
        let given = match self.1 {
            Given::Fits => return message.to_owned(),
            Given::Wide(n) => n.to_string(),
            Given::Beyond { negative: false } => "an integer above 2**127".to_owned(),
            Given::Beyond { negative: true } => "an integer below -2**127".to_owned(),
        };
        message.replace(&self.0.to_string(), &given)
    }
}

/// `message` with each of `given`'s converted values replaced by the value as given.
pub(crate) fn refused(message: &str, given: &[&dyn Refusal]) -> String {
    given
        .iter()
        .fold(message.to_owned(), |message, value| value.refusal(&message))
}

impl std::fmt::Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.refusal(&self.0.to_string()))
    }
}

impl<'py> FromPyObject<'_, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(n) => Ok(Int::new(n)),
            Err(e) => {
                let int = as_int(&obj).map_err(|_| e)?;
                let negative = int.lt(0)?;
                let clamped = if negative { i64::MIN } else { i64::MAX };
                let given = int
                    .extract::<i128>()
                    .map_or(Given::Beyond { negative }, Given::Wide);
                Ok(Int(clamped, given))
            }
        }
    }
}

/// `s` as Rust text; text that Unicode cannot encode (a lone surrogate) is an
/// :class:`~indigo.IndigoError` naming the argument `name`, not a `UnicodeEncodeError`.
pub(crate) fn text(s: &Bound<'_, PyString>, name: &str) -> PyResult<String> {
    s.to_str().map(str::to_owned).map_err(|_| {
        IndigoError::new_err(format!(
            "{name} must be valid Unicode text, not a string with a lone surrogate"
        ))
    })
}

/// The name of an argument that [`Text`] reads.
pub(crate) trait Named {
    const NAME: &'static str;
}

macro_rules! text_arguments {
    ($($ty:ident = $name:literal),* $(,)?) => {$(
        #[doc = concat!("The argument `", $name, "`.")]
        pub(crate) struct $ty;
        impl Named for $ty {
            const NAME: &'static str = $name;
        }
    )*};
}

text_arguments!(
    TextArg = "text",
    SpecArg = "spec",
    ThemeArg = "theme",
    ChanceArg = "chance",
    UtilityArg = "utility",
);

/// A text argument, read by [`text`]: its refusal names the argument `N`.
pub(crate) struct Text<N>(pub(crate) String, PhantomData<N>);

impl<N> Text<N> {
    /// A default.
    pub(crate) fn new(s: &str) -> Self {
        Text(s.to_owned(), PhantomData)
    }

    /// The text.
    pub(crate) fn into_inner(self) -> String {
        self.0
    }
}

impl<'py, N: Named> FromPyObject<'_, 'py> for Text<N> {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{} must be a str, not {}",
                N::NAME,
                obj.get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })?;
        Ok(Text(text(&s, N::NAME)?, PhantomData))
    }
}

/// A Python number as `f64`; an int too large for a float is an infinity (refused by every
/// range we check) rather than an `OverflowError`, and its refusal says so
/// ([`Refusal::refusal`]) rather than showing `inf`.
#[derive(Clone, Copy)]
pub(crate) struct Real(pub(crate) f64, Option<bool>);

impl Real {
    /// A number the caller gave exactly (a default).
    pub(crate) const fn new(x: f64) -> Real {
        Real(x, None)
    }
}

impl<'py> FromPyObject<'_, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<f64>() {
            Ok(x) => Ok(Real::new(x)),
            Err(e) => {
                let int = as_int(&obj).map_err(|_| e)?;
                let negative = int.lt(0)?;
                let infinity = if negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
                Ok(Real(infinity, Some(negative)))
            }
        }
    }
}

/// A converted argument whose refusal shows the value as given.
pub(crate) trait Refusal {
    /// `message`, the converted value replaced by the value as given.
    fn refusal(&self, message: &str) -> String;
}

impl Refusal for Int {
    fn refusal(&self, message: &str) -> String {
        Int::refusal(*self, message)
    }
}

impl Refusal for Real {
    fn refusal(&self, message: &str) -> String {
        match self.1 {
            None => message.to_owned(),
            Some(false) => message.replace("not inf", "not an integer above 2**1023"),
            Some(true) => message.replace("not -inf", "not an integer below -2**1023"),
        }
    }
}

/// The seats in a bitmask, ascending. Lists of small numbers are `Vec<u32>` because pyo3
/// turns a `Vec<u8>` into `bytes`.
pub(crate) fn seats(mask: u8, players: u8) -> Vec<u32> {
    (0..players)
        .filter(|s| mask & (1 << s) != 0)
        .map(u32::from)
        .collect()
}

/// A seed from 0 to 2**64 - 1: an `IndigoError` outside it, a `TypeError` for what is not an int.
pub(crate) fn extract_seed(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    seed.extract::<u64>().or_else(|_| {
        if let Ok(seed) = as_int(seed) {
            // Not `{seed}`: str() of an int over 4300 digits fails (a stray unraisable error).
            let shown = seed
                .str()
                .map_or_else(|_| "a longer one".into(), |s| s.to_string());
            Err(IndigoError::new_err(format!(
                "seed must be an integer from 0 to 2**64 - 1, not {shown}"
            )))
        } else {
            Err(PyTypeError::new_err(format!(
                "seed must be an int, not {}",
                seed.get_type().name()?
            )))
        }
    })
}

/// A seed from the operating system, for a caller who gives none.
pub(crate) fn os_seed() -> u64 {
    // RandomState is seeded from the operating system's entropy source.
    std::collections::hash_map::RandomState::new().hash_one(std::time::SystemTime::now())
}

/// A record given as JSON text, UTF-8 bytes or parsed JSON data, as text; `invalid` makes the
/// error for data that is not JSON (each game's format names its own location for that).
pub(crate) fn record_text(
    record: &Bound<'_, PyAny>,
    invalid: impl Fn(String) -> PyErr,
) -> PyResult<String> {
    if let Ok(s) = record.cast::<PyString>() {
        return Ok(s.to_str()?.to_owned());
    }
    if let Ok(b) = record.cast::<PyBytes>() {
        return String::from_utf8(b.as_bytes().to_vec())
            .map_err(|_| invalid("the record is not UTF-8 text".into()));
    }
    // `default=dict` lets any Mapping (not only dict) through, at any depth.
    let py = record.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("default", py.get_type::<PyDict>())?;
    // NaN and infinities are not JSON: say so, rather than fail on text the caller never wrote.
    kwargs.set_item("allow_nan", false)?;
    let dumped = json_module(py)?.call_method("dumps", (record,), Some(&kwargs));
    match dumped {
        Ok(text) => text.extract(),
        Err(e) => Err(invalid(format!("the record is not JSON data ({e})"))),
    }
}

/// `value` if `low <= value <= high`, else an error naming the range (checked by the search crate).
pub(crate) fn in_range(name: &str, value: Int, low: u64, high: u64) -> PyResult<u64> {
    indigo_search::in_range(name, value.0, low, high)
        .map_err(|e| IndigoError::new_err(value.refusal(&e.0)))
}

/// A bot spec (or anything parsed from text) as the core reads it; its refusal as an
/// `IndigoError`.
pub(crate) fn parse_spec<S: std::str::FromStr<Err = E>, E: std::fmt::Display>(
    spec: &str,
) -> PyResult<S> {
    spec.parse()
        .map_err(|e: E| IndigoError::new_err(e.to_string()))
}
