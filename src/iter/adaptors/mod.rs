//! Adaptors: each wraps a parallel iterator (and its producer and consumer) to
//! change the items on the way. One file per adaptor (or pair of twin adaptors).

mod chain;
mod cloned;
mod enumerate;
mod filter;
mod flat_map;
mod flat_map_iter;
mod fold;
mod gate;
mod inspect;
mod intersperse;
mod map;
mod map_with;
mod panic_fuse;
mod seed;
mod skip_any;
mod take_any;
mod try_fold;
mod while_some;

pub use chain::Chain;
pub use cloned::{Cloned, Copied};
pub use enumerate::Enumerate;
pub use filter::{Filter, FilterMap};
pub use flat_map::{FlatMap, Flatten};
pub use flat_map_iter::{FlatMapIter, FlattenIter};
pub use fold::{Fold, FoldWith};
pub use inspect::{Inspect, Update};
pub use intersperse::Intersperse;
pub use map::Map;
pub use map_with::{MapInit, MapWith};
pub use panic_fuse::PanicFuse;
pub use skip_any::{SkipAny, SkipAnyWhile};
pub use take_any::{TakeAny, TakeAnyWhile};
pub use try_fold::{TryFold, TryFoldWith};
pub use while_some::WhileSome;
