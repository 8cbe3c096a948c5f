//! Faults answered, not hidden: threads that cannot be started, panicking start, exit,
//! panic and spawn handlers, absurd configuration. Each fault gives a clear error or
//! goes where Rayon sends it (the same case runs against Rayon where Rayon has the
//! feature), and leaves no thread or memory behind; none hangs or aborts unless Rayon
//! aborts too. Cases that abort, or that need a resource limit, run in a child
//! process (see `child.rs`).

mod child;
mod config;
mod handlers;
mod lifecycle;
mod restart;
mod spawn;
