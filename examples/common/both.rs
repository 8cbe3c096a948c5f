//! The same workload written once for prorata and Rayon.

/// The same workload, with each library's prelude (and tree walks) in scope:
/// `(prorata, rayon)`, two closures.
macro_rules! both {
    ($body:expr) => {
        (
            || {
                #[allow(unused_imports)]
                use prorata::iter::{walk_tree_postfix, walk_tree_prefix};
                use prorata::prelude::*;
                $body
            },
            || {
                #[allow(unused_imports)]
                use rayon::iter::{walk_tree_postfix, walk_tree_prefix};
                use rayon::prelude::*;
                $body
            },
        )
    };
}
