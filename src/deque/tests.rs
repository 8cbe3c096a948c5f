//! The interface the pool uses, checked with each kind of worker deque.

use super::*;

const KINDS: [DequeKind; 2] = [DequeKind::ChaseLev, DequeKind::Bwos];

#[test]
fn owner_lifo_thief_fifo() {
    for kind in KINDS {
        let local = Local::new(kind);
        assert_eq!(local.kind(), kind);
        let stealer = local.stealer();
        for i in 0..4 {
            local.push(i);
        }
        assert_eq!(local.len(), 4);
        assert_eq!(local.pop(), Some(3));
        assert!(matches!(stealer.steal(), Steal::Success(0)), "{kind:?}");
        assert!(!stealer.is_empty());
        assert_eq!(local.pop(), Some(2));
        assert_eq!(local.pop(), Some(1));
        assert!(local.is_empty());
        assert!(stealer.is_empty());
        assert!(matches!(stealer.steal(), Steal::Empty));
    }
}

#[test]
fn injector_batch() {
    for kind in KINDS {
        let inj = Injector::new();
        for i in 0..10 {
            inj.push(i);
        }
        assert!(matches!(inj.steal(), Steal::Success(0)));
        let local = Local::new(kind);
        assert!(matches!(inj.steal_batch_and_pop(&local), Steal::Success(_)));
        let mut rest = 0;
        while local.pop().is_some() {
            rest += 1;
        }
        while let Steal::Success(_) = inj.steal() {
            rest += 1;
        }
        assert_eq!(rest, 8, "{kind:?}");
        assert!(inj.is_empty());
    }
}

/// A batch from the injector comes out of either kind of deque in the same order.
#[test]
fn injector_batch_order_is_the_same_for_both_kinds() {
    let order = |kind| {
        let inj = Injector::new();
        (0..100).for_each(|i| inj.push(i));
        let local = Local::new(kind);
        local.push(-1);
        let mut out = Vec::new();
        while let Steal::Success(first) = inj.steal_batch_and_pop(&local) {
            out.push(first);
            while let Some(job) = local.pop() {
                out.push(job);
                if job == -1 {
                    break;
                }
                local.push(-1);
                let _ = local.pop();
            }
        }
        out.extend(std::iter::from_fn(|| local.pop()));
        out
    };
    let chase_lev = order(DequeKind::ChaseLev);
    assert_eq!(chase_lev.len(), 101);
    assert_eq!(order(DequeKind::Bwos), chase_lev);
}
