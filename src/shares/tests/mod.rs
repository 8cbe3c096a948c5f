//! Unit tests of the shares layer: the pure allocator is simulated with a virtual
//! clock (deterministic), the permits are driven by real threads and, under
//! `--cfg loom`, model-checked.

mod sim;

#[cfg(not(loom))]
mod activity_tests;
#[cfg(not(loom))]
mod ceiling_tests;
#[cfg(not(loom))]
mod cores_tests;
#[cfg(not(loom))]
mod debt_tests;
mod entitlement_tests;
#[cfg(not(loom))]
mod fuzz_tests;
#[cfg(not(loom))]
mod hold_tests;
#[cfg(loom)]
mod loom_permits;
#[cfg(not(loom))]
mod lottery_tests;
#[cfg(not(loom))]
mod permits_tests;
#[cfg(not(loom))]
mod stride_tests;
#[cfg(not(loom))]
mod tree_tests;
#[cfg(not(loom))]
mod turn_tests;
#[cfg(not(loom))]
mod waiter_table_tests;
#[cfg(not(loom))]
mod wakeup_tests;
