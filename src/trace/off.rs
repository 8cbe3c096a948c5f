//! The recorder of a build without the `trace` feature: nothing, so every hook is empty.

use super::Kind;
use crate::pool::Registry;

/// A pool's recorder: nothing to record into.
#[derive(Debug, Default)]
pub(crate) struct Recorder;

impl Recorder {
    pub(crate) fn new(_workers: usize) -> Self {
        Recorder
    }

    /// Nothing is recorded.
    #[inline(always)]
    pub(crate) fn record(&self, _worker: usize, _kind: Kind, _arg: u32) {}
}

/// Nothing to join.
#[inline(always)]
pub(crate) fn adopt(_parent: &Registry, _share: &Registry, _number: usize, _tickets: u32) {}
