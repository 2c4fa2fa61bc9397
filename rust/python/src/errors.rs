//! The package's exception classes (the `IndigoError` family, each a `ValueError`) and the
//! conversions of the core crates' refusals into them.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    indigo,
    IndigoError,
    PyValueError,
    "Base class of every error this package raises for bad input."
);
pyo3::create_exception!(
    indigo,
    RulesError,
    IndigoError,
    "Rules that are not a valid configuration."
);
pyo3::create_exception!(
    indigo,
    MoveError,
    IndigoError,
    "A move value that cannot exist."
);
pyo3::create_exception!(
    indigo,
    IllegalMoveError,
    IndigoError,
    "A move that is not legal now; the game is unchanged."
);
pyo3::create_exception!(
    indigo,
    RecordError,
    IndigoError,
    "A rejected game record; `at` names the first offending field or move."
);

pyo3::create_exception!(
    indigo,
    EvaluatorError,
    IndigoError,
    "An evaluator's answer that the search cannot use: not (priors, values), a wrong shape, \
     a negative or non-finite prior, or a value outside [-1, 1]."
);

/// Any game's rejected record as `indigo.RecordError` (its `.at` the field's name or the
/// move's index).
pub(crate) fn record_error(py: Python<'_>, e: &indigo_search::RecordError) -> PyErr {
    match &e.at {
        indigo_search::ErrorAt::Field(name) => record_error_at(py, e.to_string(), name),
        indigo_search::ErrorAt::Move(i) => record_error_at(py, e.to_string(), *i),
    }
}

/// A `RecordError` saying `message`, its `.at` the offending field's name or move's index
/// (the same for both games, so that one `except indigo.RecordError` serves them).
pub(crate) fn record_error_at<'py>(
    py: Python<'py>,
    message: String,
    at: impl IntoPyObject<'py>,
) -> PyErr {
    let err = RecordError::new_err(message);
    match err.value(py).setattr("at", at) {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A refused batch or range (checked by the search crate) as the package's error.
pub(crate) fn batch_error(e: indigo_search::BatchError) -> PyErr {
    IndigoError::new_err(e.0)
}

/// Adds the exception classes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("IndigoError", py.get_type::<IndigoError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("EvaluatorError", py.get_type::<EvaluatorError>())?;
    Ok(())
}
