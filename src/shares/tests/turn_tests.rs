//! The length of a turn on a core: the quantum while few shares compete,
//! shorter when so many compete that a round of them all would take longer
//! than the allocator's round, and never shorter than its floor.

use crate::shares::allocator::{Allocator, Config};

/// An allocator of `cores` cores and a `quantum_ms` quantum in which `shares`
/// shares each have a worker waiting for (or holding) a core.
fn with_competing(cores: u32, quantum_ms: u64, shares: usize) -> Allocator {
    let mut config = Config::new(cores);
    config.quantum_nanos = quantum_ms * 1_000_000;
    let mut alloc = Allocator::new(config);
    for _ in 0..shares {
        let share = alloc.add_share(alloc.root(), 10).unwrap();
        let w = alloc.add_worker();
        alloc.request(w, share, 0);
    }
    alloc
}

#[test]
fn turns_shorten_when_many_shares_compete() {
    const MS: u64 = 1_000_000;
    // Few shares: the quantum.
    assert_eq!(with_competing(2, 4, 2).turn_nanos(), 4 * MS);
    assert_eq!(with_competing(2, 4, 49).turn_nanos(), 4 * MS);
    // 100 shares on 2 cores: a round of them all in about 100 ms.
    let turn = with_competing(2, 4, 99).turn_nanos();
    assert!((1_900_000..=2_100_000).contains(&turn), "{turn}");
    // More cores take more shares before the turns shorten.
    assert_eq!(with_competing(16, 4, 199).turn_nanos(), 4 * MS);
    // Never below the floor, nor above a quantum chosen shorter than it.
    assert_eq!(with_competing(2, 4, 1000).turn_nanos(), MS);
    assert_eq!(with_competing(2, 1, 300).turn_nanos(), MS);
    let mut config = Config::new(2);
    config.quantum_nanos = MS / 2;
    assert_eq!(Allocator::new(config).turn_nanos(), MS / 2);
}
