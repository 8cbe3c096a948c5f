//! Indexed-only adaptors and consumers: the ones that need to know lengths or split at
//! chosen indices (`zip`, `rev`, `skip`, `chunks`, `interleave`, ...). One file per
//! concept.

mod blocks;
mod chunks;
mod compare;
mod deterministic;
mod find_index;
mod interleave;
mod len_limits;
mod noop;
mod positions;
mod rev;
mod skip;
mod step_by;
mod take;
mod zip;

pub use blocks::{ExponentialBlocks, UniformBlocks};
pub use chunks::{Chunks, FoldChunks, FoldChunksWith};
pub(crate) use compare::{compare, compare_partial, equal};
pub use deterministic::Deterministic;
pub(crate) use find_index::{Side, find_index};
pub use interleave::{Interleave, InterleaveShortest};
pub use len_limits::{MaxLen, MinLen};
pub use positions::Positions;
pub use rev::Rev;
pub use skip::Skip;
pub use step_by::StepBy;
pub use take::Take;
pub use zip::{Zip, ZipEq};
