//! The consumer behind every adaptor that lets each item through or not, one at a
//! time: `filter_map` (and so `filter`), `while_some`, `take_any`, `skip_any`,
//! `take_any_while`, `skip_any_while`. The adaptor decides in a [`Gate`]; the gate
//! may close for good (a shared flag or counter), which makes every folder full.

use crate::iter::plumbing::*;

/// Decides, item by item, what goes on downstream.
pub(crate) trait Gate<T>: Sync {
    /// What comes out of the gate.
    type Out;

    /// Whether the gate can ever close. Gates that cannot take a faster path that
    /// never asks.
    const MAY_CLOSE: bool;

    /// The item to pass downstream, if any.
    fn pass(&self, item: T) -> Option<Self::Out>;

    /// True once no further item will ever pass.
    fn closed(&self) -> bool {
        false
    }
}

/// Wraps a downstream consumer behind a gate shared by all pieces.
pub(crate) struct GateConsumer<'g, C, G> {
    base: C,
    gate: &'g G,
}

impl<'g, C, G> GateConsumer<'g, C, G> {
    pub(crate) fn new(base: C, gate: &'g G) -> Self {
        GateConsumer { base, gate }
    }
}

impl<'g, T, C, G> Consumer<T> for GateConsumer<'g, C, G>
where
    G: Gate<T>,
    C: Consumer<G::Out>,
{
    type Folder = GateFolder<'g, C::Folder, G>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        // The index counts items before the gate; downstream, only unindexed
        // consumers meet gated items, and they take the index as a hint.
        let (left, right, reducer) = self.base.split_at(index);
        (
            GateConsumer::new(left, self.gate),
            GateConsumer::new(right, self.gate),
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        GateFolder {
            base: self.base.into_folder(),
            gate: self.gate,
        }
    }

    fn full(&self) -> bool {
        self.gate.closed() || self.base.full()
    }
}

impl<T, C, G> UnindexedConsumer<T> for GateConsumer<'_, C, G>
where
    G: Gate<T>,
    C: UnindexedConsumer<G::Out>,
{
    fn split_off_left(&self) -> Self {
        GateConsumer::new(self.base.split_off_left(), self.gate)
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

pub(crate) struct GateFolder<'g, F, G> {
    base: F,
    gate: &'g G,
}

impl<T, F, G> Folder<T> for GateFolder<'_, F, G>
where
    G: Gate<T>,
    F: Folder<G::Out>,
{
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        if let Some(out) = self.gate.pass(item) {
            self.base = self.base.consume(out);
        }
        self
    }

    fn consume_iter<I: IntoIterator<Item = T>>(mut self, iter: I) -> Self {
        let gate = self.gate;
        if !G::MAY_CLOSE {
            // Hand the whole run downstream, so a `sum` or `count` sees one iterator.
            self.base = self
                .base
                .consume_iter(iter.into_iter().filter_map(|item| gate.pass(item)));
            return self;
        }
        for item in iter {
            self = self.consume(item);
            if self.full() {
                break;
            }
        }
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.gate.closed() || self.base.full()
    }
}
