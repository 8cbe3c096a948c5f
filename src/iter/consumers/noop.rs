//! The reducer for consumers whose pieces produce `()`.

use crate::iter::plumbing::Reducer;

/// Joins two `()` results: there is nothing to join.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NoopReducer;

impl Reducer<()> for NoopReducer {
    #[inline]
    fn reduce(self, _left: (), _right: ()) {}
}
