//! The public face of the shares layer that exists without a pool: the error and
//! the policy types.

use prorata::{ShareError, SharePolicy};

#[test]
fn share_errors_are_errors_with_clear_messages() {
    let all = [
        ShareError::ZeroTickets,
        ShareError::TicketOverflow,
        ShareError::PoolShuttingDown,
        ShareError::DifferentPools,
        ShareError::ZeroCeiling,
    ];
    for (i, e) in all.iter().enumerate() {
        let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(*e);
        assert!(!boxed.to_string().is_empty());
        for (j, f) in all.iter().enumerate() {
            assert_eq!(i == j, e == f);
        }
    }
    assert!(ShareError::TicketOverflow.to_string().contains("u32::MAX"));
    assert!(
        ShareError::PoolShuttingDown
            .to_string()
            .contains("shutting down")
    );
}

#[test]
fn stride_is_the_default_policy() {
    assert_eq!(SharePolicy::default(), SharePolicy::Stride);
    let p = SharePolicy::Lottery;
    let q = p;
    assert_eq!(format!("{p:?}"), format!("{q:?}"));
}
