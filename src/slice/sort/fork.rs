//! Running a list of independent pieces of work on the pool.

/// Runs `g` on every item, splitting the list in halves with `join`.
pub(super) fn for_each_par<X: Send, G: Fn(&mut X) + Sync>(items: &mut [X], g: &G) {
    match items {
        [] => {}
        [one] => g(one),
        _ => {
            let (a, b) = items.split_at_mut(items.len() / 2);
            crate::join(|| for_each_par(a, g), || for_each_par(b, g));
        }
    }
}
