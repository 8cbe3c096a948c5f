//! Which proportional-share algorithm divides the cores.

/// How a pool divides its cores among competing shares.
///
/// Both policies give every active share, over time, a fraction of the cores equal to
/// its fraction of the active tickets. They differ in how closely they track it:
///
/// * [`SharePolicy::Stride`] (the default) is deterministic: each share advances a
///   virtual "pass" by the core time it used divided by its tickets, and the share
///   with the lowest pass gets the next core. The error stays within about one
///   quantum per share, whatever the run length.
/// * [`SharePolicy::Lottery`] draws the cores at random, weighted by tickets, once
///   per quantum. Each share's lag (the core time its tickets were worth minus what
///   it got, remembered for a bounded time like stride's) tilts the next draws, so
///   the error does not grow with the run, but single quanta are random and short
///   windows are noisier than stride's.
///
/// Under both, a share that cannot use its part for a while (a fork-join tail, with
/// one worker still busy and the others idle) leaves the spare cores to the others
/// and gets them back afterwards: the fractions are those of the tickets, not of
/// the demands.
///
/// ```
/// use prorata::SharePolicy;
///
/// assert_eq!(SharePolicy::default(), SharePolicy::Stride);
/// assert_ne!(SharePolicy::Lottery, SharePolicy::Stride);
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SharePolicy {
    /// Stride scheduling (Waldspurger & Weihl, 1995): deterministic, small error.
    #[default]
    Stride,
    /// Lottery scheduling (Waldspurger & Weihl, 1994): randomised, unbiased.
    Lottery,
}
