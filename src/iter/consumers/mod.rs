//! Consumers that finish a chain without building a collection. One file per concept.

pub(crate) mod for_each;
mod noop;

pub(crate) use noop::NoopReducer;
