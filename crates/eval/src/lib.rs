//! Evaluation of HATETRIS wells: the [`Evaluator`] trait, the hand-made
//! [`Baseline`], and the NNUE-style [`Network`] (pattern-count features,
//! one hidden tanhExp layer, tanh output) with its weight file format.
//!
//! Everything takes a well as its playable rows (below the bar, top first,
//! `Well::playable`), 1..=16 of them.
//!
//! * [`evaluator`]: the trait searches use.
//! * [`baseline`]: the hand-made evaluator, bit operations on rows.
//! * [`features`]: the network inputs (row and 3x4 window patterns).
//! * [`network`]: the network, its fast inference and the naive reference.
//! * [`quantized`]: the network with an i16 first layer and a band cache
//!   (what `hatetris search` and `play` evaluate with).
//! * [`weights`]: the `.hnet` file format.
//! * [`mean`]: the mean of several evaluators (an ensemble).
//! * [`mirror`]: an evaluator read on the well's mirror image.
//! * [`noisy`]: an evaluator with seeded noise (the cycle's openings).
//! * [`spec`]: evaluators as users name them (`baseline`, `net`, `net=PATH`,
//!   `mirror:E`, `mean=A,B,...`).
//! * [`simd`]: SIMD lanes and fast exp / tanh / tanhExp.

pub mod baseline;
pub mod evaluator;
pub mod features;
pub mod mean;
pub mod mirror;
pub mod network;
pub mod noisy;
pub mod quantized;
pub mod simd;
pub mod spec;
#[cfg(test)]
mod testing;
pub mod weights;

pub use baseline::{Baseline, BaselineFeatures};
pub use evaluator::Evaluator;
pub use features::{active_features, NUM_FEATURES, ROW_FEATURES, WINDOW_FEATURES};
pub use mean::Mean;
pub use mirror::Mirror;
pub use network::{tanh_exp, tanh_exp_grad, Network};
pub use noisy::Noisy;
pub use quantized::QuantizedNetwork;
pub use spec::{EvalSpec, EvalSpecError};
pub use weights::WeightsError;
