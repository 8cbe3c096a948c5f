//! Consumers that finish a chain without building a collection. One file per concept.

pub(crate) mod find_any;
pub(crate) mod find_first_last;
pub(crate) mod for_each;
mod noop;
pub(crate) mod reduce;
pub(crate) mod sum;
pub(crate) mod try_reduce;
pub(crate) mod try_trait;

pub(crate) use noop::NoopReducer;
