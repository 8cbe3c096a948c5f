//! Loom models (placeholder, filled below).
