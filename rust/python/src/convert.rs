//! Conversions shared by every game's classes: integers and numbers as Python gives them,
//! seeds, JSON values and record text, bot specs.

use std::hash::BuildHasher;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyInt, PyString};

use crate::errors::{IndigoError, batch_error};

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

/// A Python int (or any `__index__` value) as `i64`, clamped: an int too large for `i64` is
/// out of every range we check, so it fails that range check with a `ValueError` subclass
/// rather than an `OverflowError`.
#[derive(Clone, Copy)]
pub(crate) struct Int(pub(crate) i64);

impl<'py> FromPyObject<'_, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(n) => Ok(Int(n)),
            Err(e) => {
                let int = as_int(&obj).map_err(|_| e)?;
                Ok(Int(if int.lt(0)? { i64::MIN } else { i64::MAX }))
            }
        }
    }
}

/// A Python number as `f64`; an int too large for a float is an infinity (refused by every
/// range we check) rather than an `OverflowError`.
#[derive(Clone, Copy)]
pub(crate) struct Real(pub(crate) f64);

impl<'py> FromPyObject<'_, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<f64>() {
            Ok(x) => Ok(Real(x)),
            Err(e) => {
                let int = as_int(&obj).map_err(|_| e)?;
                Ok(Real(if int.lt(0)? {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }))
            }
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
pub(crate) fn in_range(name: &str, Int(value): Int, low: u64, high: u64) -> PyResult<u64> {
    indigo_search::in_range(name, value, low, high).map_err(batch_error)
}

/// A bot spec (or anything parsed from text) as the core reads it; its refusal as an
/// `IndigoError`.
pub(crate) fn parse_spec<S: std::str::FromStr<Err = E>, E: std::fmt::Display>(
    spec: &str,
) -> PyResult<S> {
    spec.parse()
        .map_err(|e: E| IndigoError::new_err(e.to_string()))
}
