//! `use prorata::prelude::*` brings the traits in, as `rayon::prelude` does.
//!
//! ```
//! use prorata::prelude::*;
//! let mut v = vec![2, 1];
//! v.par_sort_unstable();
//! assert_eq!(v, [1, 2]);
//! ```

pub use crate::slice::ParallelSliceMut;
