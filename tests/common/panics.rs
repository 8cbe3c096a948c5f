//! Catching a panic and reading its message.

/// Runs `op`, expecting a panic, and returns its message.
pub fn panic_message(op: impl FnOnce()) -> String {
    let payload =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(op)).expect_err("expected a panic");
    message_of(&*payload)
}

/// The text of a panic payload (`&str` or `String`), or a placeholder.
pub fn message_of(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic>".to_string()
    }
}
