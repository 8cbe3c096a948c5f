//! Which proportional-share algorithm divides the cores.

/// How a pool divides its cores among competing shares.
///
/// All three give every active share, over time, a fraction of the cores equal to
/// its fraction of the active tickets, charging each share the CPU time its workers
/// used while holding a core. They differ in how closely they track it over short
/// windows:
///
/// * [`SharePolicy::Stride`] (the default) is deterministic: each share advances a
///   virtual "pass" by the core time it used divided by its entitlement, and the
///   cores go to the earliest virtual deadlines. The error stays within about one
///   quantum per share, whatever the run length.
/// * [`SharePolicy::Lottery`] draws each core at random, weighted by tickets, once
///   per quantum (one lottery per core). Each share's lag (the core time its tickets
///   were worth minus what it got, remembered for a bounded time like stride's)
///   tilts the next draws, so the error does not grow with the run, but single
///   quanta are random and short windows are the noisiest of the three. A share
///   whose demand rises (it starts running, or wakes more workers) gets the whole
///   cores of its part at once; only the rest is drawn.
/// * [`SharePolicy::MultiWinnerLottery`] draws once per superquantum of four quanta
///   and picks all its winners with that one draw, evenly spaced in the ticket space
///   (Waldspurger's multi-winner lottery): every share gets at least the whole part
///   of its entitlement in every quantum, and only the remainders are random, so it
///   is as fair as the plain lottery on average with less variance on several cores.
///
/// Under all three, a share that cannot use its part for a while (a fork-join tail,
/// with one worker still busy and the others idle) leaves the spare cores to the
/// others and gets them back afterwards: the fractions are those of the tickets, not
/// of the demands. A share idle for a moment (between two calls) keeps its claim.
///
/// ```
/// use prorata::SharePolicy;
///
/// assert_eq!(SharePolicy::default(), SharePolicy::Stride);
/// assert_ne!(SharePolicy::Lottery, SharePolicy::MultiWinnerLottery);
/// let pool = prorata::ThreadPoolBuilder::new()
///     .num_threads(2)
///     .share_policy(SharePolicy::MultiWinnerLottery)
///     .build()
///     .unwrap();
/// assert_eq!(pool.share(3).unwrap().install(|| 1 + 1), 2);
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SharePolicy {
    /// Stride scheduling (Waldspurger & Weihl, 1995): deterministic, small error.
    #[default]
    Stride,
    /// Lottery scheduling (Waldspurger & Weihl, 1994): one random draw per core and
    /// quantum; unbiased, the largest short-term error.
    Lottery,
    /// Multi-winner lottery scheduling (Waldspurger, 1995, section 3.2): one draw
    /// picks every winner of a superquantum; unbiased, less variance than
    /// [`SharePolicy::Lottery`].
    MultiWinnerLottery,
}
