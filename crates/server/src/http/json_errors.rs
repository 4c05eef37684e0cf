//! JSON errors as sentences, the same for HTTP bodies (`api`) and
//! WebSocket messages (`ws`).

/// A JSON error as a sentence that names the field at fault.
pub fn json_error_sentence(error: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = error.path().to_string();
    let inner = error.inner();
    if path.is_empty() || path == "." {
        format!("The request is not the JSON this call takes: {inner}.")
    } else {
        format!("The field \"{path}\" is wrong: {inner}.")
    }
}
