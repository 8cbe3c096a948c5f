//! `use prorata::prelude::*;` brings the parallel-iterator traits into scope, as
//! `rayon::prelude::*` does.
//!
//! ```
//! use prorata::prelude::*;
//! let mut v = vec![1, 2, 3];
//! v.par_iter_mut().for_each(|x| *x += 1);
//! assert_eq!(v, [2, 3, 4]);
//! ```

pub use crate::iter::{
    FromParallelIterator, IndexedParallelIterator, IntoParallelIterator, IntoParallelRefIterator,
    IntoParallelRefMutIterator, ParallelExtend, ParallelIterator,
};
pub use crate::iter::{ParallelBridge, ParallelDrainFull, ParallelDrainRange};
pub use crate::slice::{ParallelSlice, ParallelSliceMut};
pub use crate::str::ParallelString;
