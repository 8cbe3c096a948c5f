//! Ticket shares: dividing a pool's cores among competing computations.
//!
//! (Integration plan: see the end of this documentation.)

// The allocator is complete and tested, but the pool does not call it yet (see the
// integration plan above): until then most of it is unused outside the tests.
#![allow(dead_code)]

mod accounting;
mod allocator;
mod entitlement;
mod error;
mod lottery;
mod permits;
mod policy;
mod rng;
mod stride;
mod sync;
mod tree;

#[cfg(test)]
mod tests;

pub use error::ShareError;
pub use policy::SharePolicy;
