//! Helpers shared by the integration tests, one module per concern. A test file
//! declares `mod common;` and uses the parts it needs.

#![allow(dead_code)] // each test file uses a different part

pub mod barrier;
pub mod battery;
pub mod cases;
pub mod drops;
pub mod executor;
pub mod panics;
pub mod plumbing;
pub mod sort_inputs;
pub mod watchdog;
pub mod work;
