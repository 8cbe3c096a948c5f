//! The workloads of the overhead example and bench (`benches/overhead.rs`): written
//! once, instantiated for prorata and for Rayon, with their sequential versions (and
//! chili's, for the tree sum).

#![allow(dead_code)] // each includer uses a part

use std::time::{Duration, Instant};

/// The parallel workloads, written once and instantiated for each library, so that
/// both run word for word the same code.
macro_rules! parallel_workloads {
    ($krate:ident) => {
        use $krate::prelude::*;

        pub fn fib(n: u32) -> u64 {
            if n < 2 {
                return n as u64;
            }
            let (a, b) = $krate::join(|| fib(n - 1), || fib(n - 2));
            a + b
        }

        pub fn map_sum(v: &[u64]) -> u64 {
            v.par_iter().map(|x| x * x % 7).sum()
        }

        pub fn map_collect(v: &[u64]) -> Vec<u64> {
            v.par_iter().map(|x| x ^ 0x5555).collect()
        }

        pub fn filter_count(v: &[u64]) -> usize {
            v.par_iter().filter(|x| *x % 3 == 0).count()
        }

        pub fn filter_collect(v: &[u64]) -> Vec<u64> {
            v.par_iter()
                .filter(|x| *x % 3 == 0)
                .map(|x| x / 3)
                .collect()
        }

        /// A balanced tree of `leaves` leaves through `join`, each spinning `leaf`.
        pub fn tree(leaves: usize, leaf: std::time::Duration) -> usize {
            if leaves == 1 {
                super::spin_for(leaf);
                return 1;
            }
            let (a, b) = $krate::join(
                || tree(leaves / 2, leaf),
                || tree(leaves - leaves / 2, leaf),
            );
            a + b
        }

        /// The sum of a tree's values, one `join` per node over its two children (an
        /// absent child included), no cut-off: chili's benchmark.
        pub fn tree_sum(node: &super::Node) -> u64 {
            let (left, right) = $krate::join(
                || node.left.as_deref().map_or(0, tree_sum),
                || node.right.as_deref().map_or(0, tree_sum),
            );
            node.val + left + right
        }

        pub fn items(n: usize, item: std::time::Duration) -> usize {
            (0..n)
                .into_par_iter()
                .map(|_| super::spin_for(item))
                .count()
        }
    };
}

pub mod ours {
    parallel_workloads!(prorata);
}

pub mod theirs {
    parallel_workloads!(rayon);
}

/// chili's version of the tree sum: its `join` takes the scope down the recursion.
pub mod heartbeat {
    use chili::Scope;

    pub fn tree_sum(node: &super::Node, scope: &mut Scope<'_>) -> u64 {
        let (left, right) = scope.join(
            |s| node.left.as_deref().map_or(0, |n| tree_sum(n, s)),
            |s| node.right.as_deref().map_or(0, |n| tree_sum(n, s)),
        );
        node.val + left + right
    }
}

/// A node of a balanced binary tree of boxed nodes (chili's benchmark).
pub struct Node {
    pub val: u64,
    pub left: Option<Box<Node>>,
    pub right: Option<Box<Node>>,
}

impl Node {
    /// A balanced tree of `2^layers - 1` nodes, each of value 1, as chili builds it:
    /// a node is boxed after its subtrees (the left one first), so that memory holds
    /// every subtree in post-order, left subtree, right subtree, root.
    pub fn tree(layers: u32) -> Node {
        let child = || (layers > 1).then(|| Box::new(Node::tree(layers - 1)));
        Node {
            val: 1,
            left: child(),
            right: child(),
        }
    }
}

/// The same workloads, sequentially.
pub mod sequential {
    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            n as u64
        } else {
            fib(n - 1) + fib(n - 2)
        }
    }

    pub fn map_sum(v: &[u64]) -> u64 {
        v.iter().map(|x| x * x % 7).sum()
    }

    pub fn map_collect(v: &[u64]) -> Vec<u64> {
        v.iter().map(|x| x ^ 0x5555).collect()
    }

    pub fn filter_count(v: &[u64]) -> usize {
        v.iter().filter(|x| *x % 3 == 0).count()
    }

    pub fn filter_collect(v: &[u64]) -> Vec<u64> {
        v.iter().filter(|x| *x % 3 == 0).map(|x| x / 3).collect()
    }

    pub fn tree_sum(node: &super::Node) -> u64 {
        node.val
            + node.left.as_deref().map_or(0, tree_sum)
            + node.right.as_deref().map_or(0, tree_sum)
    }

    /// The right child first, as chili's `join` runs its closures when it does not
    /// share: the reverse of the order [`super::Node::tree`] allocates the nodes in.
    pub fn tree_sum_right_first(node: &super::Node) -> u64 {
        let right = node.right.as_deref().map_or(0, tree_sum_right_first);
        node.val + right + node.left.as_deref().map_or(0, tree_sum_right_first)
    }
}

/// Busy-waits for `d` (a leaf of coarse work: the CPU stays busy, as real work would).
pub fn spin_for(d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}
