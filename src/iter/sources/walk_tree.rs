//! `walk_tree_prefix`, `walk_tree_postfix` and `walk_tree`: the nodes of a tree given
//! by its root and a function listing a node's children, visited in parallel.
//!
//! A producer holds a forest (subtrees, left to right) plus the nodes already
//! expanded that must come before it (prefix) or after it (postfix). To split, it
//! expands single trees until there are two or more, then halves the forest.

use std::fmt;

use crate::iter::plumbing::*;
use crate::iter::*;

/// The nodes of the tree in prefix order (each node before its children, children
/// left to right), as a depth-first sequential walk would yield them.
///
/// ```
/// use prorata::prelude::*;
/// // The tree 1 -> [2 -> [4, 5], 3].
/// let children = |&n: &u32| if n < 3 { vec![2 * n, 2 * n + 1] } else if n == 2 { vec![] } else { vec![] };
/// let it = prorata::iter::walk_tree_prefix(1u32, move |n| children(n).into_iter().filter(|&c| c <= 5).collect::<Vec<_>>());
/// let seen = std::sync::Mutex::new(vec![]);
/// it.for_each(|n| seen.lock().unwrap().push(n));
/// let mut seen = seen.into_inner().unwrap();
/// seen.sort();
/// assert_eq!(seen, [1, 2, 3, 4, 5]);
/// ```
pub fn walk_tree_prefix<S, B, I>(root: S, children_of: B) -> WalkTreePrefix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    WalkTreePrefix { root, children_of }
}

/// The nodes of the tree in postfix order (each node after its children, children
/// left to right).
///
/// ```
/// use prorata::prelude::*;
/// let it = prorata::iter::walk_tree_postfix(0u32, |&n| if n < 3 { vec![n + 1] } else { vec![] });
/// let hits = std::sync::atomic::AtomicU32::new(0);
/// it.for_each(|n| { hits.fetch_add(n, std::sync::atomic::Ordering::Relaxed); });
/// assert_eq!(hits.into_inner(), 6);
/// ```
pub fn walk_tree_postfix<S, B, I>(root: S, children_of: B) -> WalkTreePostfix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    WalkTreePostfix { root, children_of }
}

/// The nodes of the tree, in no specified order (currently postfix, which may
/// change).
///
/// ```
/// use prorata::prelude::*;
/// let it = prorata::iter::walk_tree(1u32, |&n| if n < 8 { vec![2 * n, 2 * n + 1] } else { vec![] });
/// let count = std::sync::atomic::AtomicUsize::new(0);
/// it.for_each(|_| { count.fetch_add(1, std::sync::atomic::Ordering::Relaxed); });
/// assert_eq!(count.into_inner(), 15);
/// ```
pub fn walk_tree<S, B, I>(root: S, children_of: B) -> WalkTree<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    WalkTree(walk_tree_postfix(root, children_of))
}

/// The iterator made by [`walk_tree_prefix()`].
///
/// ```
/// let w: prorata::iter::WalkTreePrefix<u8, _> =
///     prorata::iter::walk_tree_prefix(0u8, |_| Vec::<u8>::new());
/// # let _ = w;
/// ```
#[derive(Clone)]
pub struct WalkTreePrefix<S, B> {
    root: S,
    children_of: B,
}

/// The iterator made by [`walk_tree_postfix()`].
///
/// ```
/// let w: prorata::iter::WalkTreePostfix<u8, _> =
///     prorata::iter::walk_tree_postfix(0u8, |_| Vec::<u8>::new());
/// # let _ = w;
/// ```
#[derive(Clone)]
pub struct WalkTreePostfix<S, B> {
    root: S,
    children_of: B,
}

/// The iterator made by [`walk_tree()`].
///
/// ```
/// let w: prorata::iter::WalkTree<u8, _> = prorata::iter::walk_tree(0u8, |_| Vec::<u8>::new());
/// # let _ = w;
/// ```
#[derive(Clone)]
pub struct WalkTree<S, B>(WalkTreePostfix<S, B>);

impl<S: fmt::Debug, B> fmt::Debug for WalkTreePrefix<S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WalkTreePrefix")
            .field("root", &self.root)
            .finish()
    }
}

impl<S: fmt::Debug, B> fmt::Debug for WalkTreePostfix<S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WalkTreePostfix")
            .field("root", &self.root)
            .finish()
    }
}

impl<S: fmt::Debug, B> fmt::Debug for WalkTree<S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("WalkTree").field(&self.0.root).finish()
    }
}

impl<S, B, I> ParallelIterator for WalkTreePrefix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator> + Send,
{
    type Item = S;

    fn drive_unindexed<C: UnindexedConsumer<S>>(self, consumer: C) -> C::Result {
        let producer = PrefixProducer {
            before: Vec::new(),
            forest: vec![self.root],
            children_of: &self.children_of,
        };
        bridge_unindexed(producer, consumer)
    }
}

impl<S, B, I> ParallelIterator for WalkTreePostfix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S> + Send,
{
    type Item = S;

    fn drive_unindexed<C: UnindexedConsumer<S>>(self, consumer: C) -> C::Result {
        let producer = PostfixProducer {
            forest: vec![self.root],
            after: Vec::new(),
            children_of: &self.children_of,
        };
        bridge_unindexed(producer, consumer)
    }
}

impl<S, B, I> ParallelIterator for WalkTree<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator> + Send,
{
    type Item = S;

    fn drive_unindexed<C: UnindexedConsumer<S>>(self, consumer: C) -> C::Result {
        self.0.drive_unindexed(consumer)
    }
}

/// While the forest is a single tree, replaces it by its root's subtrees, moving the
/// root to `expanded`: then there are two trees to split between, or none.
fn expand_single_tree<S, B, I>(forest: &mut Vec<S>, expanded: &mut Vec<S>, children_of: &B)
where
    B: Fn(&S) -> I,
    I: IntoIterator<Item = S>,
{
    while forest.len() == 1 {
        let node = forest.pop().expect("one tree");
        *forest = children_of(&node).into_iter().collect();
        expanded.push(node);
    }
}

/// Yields `before` (expanded nodes, in order), then each tree of `forest` in prefix
/// order.
struct PrefixProducer<'b, S, B> {
    before: Vec<S>,
    forest: Vec<S>,
    children_of: &'b B,
}

impl<S, B, I> UnindexedProducer for PrefixProducer<'_, S, B>
where
    S: Send,
    B: Fn(&S) -> I + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    type Item = S;

    fn split(mut self) -> (Self, Option<Self>) {
        expand_single_tree(&mut self.forest, &mut self.before, self.children_of);
        if self.forest.len() < 2 {
            return (self, None);
        }
        let right = PrefixProducer {
            before: Vec::new(),
            forest: self.forest.split_off(self.forest.len() / 2),
            children_of: self.children_of,
        };
        (self, Some(right))
    }

    fn fold_with<F: Folder<S>>(self, mut folder: F) -> F {
        folder = folder.consume_iter(self.before);
        for tree in self.forest {
            if folder.full() {
                break;
            }
            folder = prefix_walk(tree, self.children_of, folder);
        }
        folder
    }
}

/// Sequential prefix walk: one stack of the nodes still to visit, each node's
/// children pushed in reverse so that the first is popped next. A node's children
/// are taken out of their iterator when the node is visited (as Rayon does), so the
/// children's collection is freed at once; a stack of half-read iterators kept one
/// collection per level alive, and freeing them in bursts on the way back up cost
/// more in the allocator than the walk itself.
fn prefix_walk<S, B, I, F>(root: S, children_of: &B, mut folder: F) -> F
where
    B: Fn(&S) -> I,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
    F: Folder<S>,
{
    let mut stack = vec![root];
    while !stack.is_empty() {
        // The nodes go to the folder in runs of a known greatest length, so that the
        // pool's safe points come between runs rather than being counted node by node.
        folder = folder.consume_iter(PrefixRun {
            stack: &mut stack,
            children_of,
            left: PREFIX_RUN,
        });
        if folder.full() {
            break;
        }
    }
    folder
}

/// Nodes of a prefix walk handed to a folder at once, at most.
const PREFIX_RUN: usize = 1024;

/// The next nodes of a prefix walk, at most `left` of them: each node's children are
/// pushed (in reverse) when the node is yielded, as in [`prefix_walk`]'s loop.
struct PrefixRun<'a, S, B> {
    stack: &'a mut Vec<S>,
    children_of: &'a B,
    left: usize,
}

impl<S, B, I> Iterator for PrefixRun<'_, S, B>
where
    B: Fn(&S) -> I,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    type Item = S;

    #[inline]
    fn next(&mut self) -> Option<S> {
        if self.left == 0 {
            return None;
        }
        let node = self.stack.pop()?;
        self.left -= 1;
        self.stack
            .extend((self.children_of)(&node).into_iter().rev());
        Some(node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left.min(self.stack.len()), Some(self.left))
    }
}

/// Yields each tree of `forest` in postfix order, then `after` (expanded nodes, kept
/// in reverse: the last one comes first).
struct PostfixProducer<'b, S, B> {
    forest: Vec<S>,
    after: Vec<S>,
    children_of: &'b B,
}

impl<S, B, I> UnindexedProducer for PostfixProducer<'_, S, B>
where
    S: Send,
    B: Fn(&S) -> I + Sync,
    I: IntoIterator<Item = S>,
{
    type Item = S;

    fn split(mut self) -> (Self, Option<Self>) {
        expand_single_tree(&mut self.forest, &mut self.after, self.children_of);
        if self.forest.len() < 2 {
            return (self, None);
        }
        let left = PostfixProducer {
            forest: self.forest.drain(..self.forest.len() / 2).collect(),
            after: Vec::new(),
            children_of: self.children_of,
        };
        (left, Some(self))
    }

    fn fold_with<F: Folder<S>>(self, mut folder: F) -> F {
        for tree in self.forest {
            if folder.full() {
                return folder;
            }
            folder = postfix_walk(tree, self.children_of, folder);
        }
        folder.consume_iter(self.after.into_iter().rev())
    }
}

/// Sequential postfix walk: recursion (each frame holds a node and the iterator over
/// its children still to visit, on the thread's stack, with none of a heap stack's
/// capacity checks and moves of entries: the heap stack cost half as much again per
/// node) down to a depth whose frames fit [`RECURSION_BYTES`]; a subtree below that
/// depth is walked with a stack on the heap, so that a tree as deep as a long chain
/// cannot overflow the thread's stack.
fn postfix_walk<S, B, I, F>(root: S, children_of: &B, folder: F) -> F
where
    B: Fn(&S) -> I,
    I: IntoIterator<Item = S>,
    F: Folder<S>,
{
    // A generous guess at one frame: the node, the children's iterator and the
    // call's own bookkeeping (saved registers, return address).
    let frame = 2 * size_of::<S>() + size_of::<I::IntoIter>() + 96;
    let depth = (RECURSION_BYTES / frame).clamp(1, MAX_RECURSION);
    let mut slot = Some(folder);
    postfix_recursive(root, children_of, &mut slot, depth);
    slot.expect("a walk leaves its folder in the slot")
}

/// The stack the recursive part of a postfix walk may use, in bytes.
const RECURSION_BYTES: usize = 32 * 1024;

/// The deepest the recursive part of a postfix walk goes, however small its frames.
const MAX_RECURSION: usize = 128;

/// The recursive part of [`postfix_walk`]: `depth` more levels, then a heap stack.
/// The folder stays in `slot` (taken out only to consume a node) rather than moving
/// in and out of every call. Returns whether the folder is full.
fn postfix_recursive<S, B, I, F>(
    node: S,
    children_of: &B,
    slot: &mut Option<F>,
    depth: usize,
) -> bool
where
    B: Fn(&S) -> I,
    I: IntoIterator<Item = S>,
    F: Folder<S>,
{
    if depth == 0 {
        let folder = slot.take().expect("folder in its slot");
        let folder = postfix_heap_walk(node, children_of, folder);
        let full = folder.full();
        *slot = Some(folder);
        return full;
    }
    for child in children_of(&node) {
        if postfix_recursive(child, children_of, slot, depth - 1) {
            return true;
        }
    }
    let folder = slot.take().expect("folder in its slot").consume(node);
    let full = folder.full();
    *slot = Some(folder);
    full
}

/// Postfix walk with a stack on the heap of (node, its children still to visit).
fn postfix_heap_walk<S, B, I, F>(root: S, children_of: &B, mut folder: F) -> F
where
    B: Fn(&S) -> I,
    I: IntoIterator<Item = S>,
    F: Folder<S>,
{
    let children = children_of(&root).into_iter();
    let mut stack = vec![(root, children)];
    while let Some((_, children)) = stack.last_mut() {
        match children.next() {
            Some(child) => {
                let grandchildren = children_of(&child).into_iter();
                stack.push((child, grandchildren));
            }
            None => {
                let (node, _) = stack.pop().expect("non-empty stack");
                folder = folder.consume(node);
                if folder.full() {
                    return folder;
                }
            }
        }
    }
    folder
}
