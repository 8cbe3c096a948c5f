//! Seeds: where an adaptor gets the per-piece state of `map_with`/`map_init`,
//! `fold`/`fold_with` and their `try_` forms. A `*_with` adaptor clones one value for
//! every piece; an `*_init`/identity adaptor calls a closure for every piece.

/// A source of one value per sequential piece of the work.
pub(crate) trait Seed: Send + Sized {
    /// The value each piece starts from.
    type Value;

    /// A seed for another piece (the left one, when splitting).
    fn split(&self) -> Self;

    /// The value for this piece.
    fn into_value(self) -> Self::Value;
}

/// Calls `make` for every piece (`map_init`, `fold`, `try_fold`).
pub(crate) struct CallSeed<'f, F> {
    pub(crate) make: &'f F,
}

impl<T, F: Fn() -> T + Sync> Seed for CallSeed<'_, F> {
    type Value = T;

    fn split(&self) -> Self {
        CallSeed { make: self.make }
    }

    fn into_value(self) -> T {
        (self.make)()
    }
}

/// Clones one value for every piece (`map_with`, `fold_with`, `try_fold_with`).
pub(crate) struct CloneSeed<T> {
    pub(crate) value: T,
}

impl<T: Clone + Send> Seed for CloneSeed<T> {
    type Value = T;

    fn split(&self) -> Self {
        CloneSeed {
            value: self.value.clone(),
        }
    }

    fn into_value(self) -> T {
        self.value
    }
}
