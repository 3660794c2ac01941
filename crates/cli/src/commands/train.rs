//! `hatetris train`: fit a network to data sets. One JSON line per epoch on
//! stdout, a progress bar per epoch on stderr (on a terminal), the best
//! weights written to --out and a loss plot beside them.

use anyhow::{Context, Result};
use clap::Args;
use hatetris_eval::Network;
use hatetris_learn::dataset::{read_dataset, subsample};
use hatetris_learn::train::{train_with_progress, EpochReport, Loss, TrainConfig};
use hatetris_plot::plot_losses;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    /// Data sets (.htds) to train on, one or more.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Hidden units, a multiple of 8 (default: those of --init, else 48).
    /// More than --init's widens it first, keeping its values.
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Where to write the trained network (.hnet).
    #[arg(long)]
    pub out: PathBuf,
    /// Seeds the initial weights, the validation split and the batch order.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Start from these weights instead of random ones.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Samples per mini-batch.
    #[arg(long, default_value_t = 8192)]
    pub batch: usize,
    /// Adam step size.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f32,
    #[arg(long, default_value_t = 100)]
    pub max_epochs: usize,
    /// Stop after this many epochs without a better validation loss.
    #[arg(long, default_value_t = 3)]
    pub patience: usize,
    /// Share of the samples held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// What the fit minimises: `mse` (squared error of the value) or
    /// `logit` (squared error of the output's pre-activation against
    /// atanh of the target, which keeps the order among wells valued near
    /// -1; the epoch losses are then in that scale).
    #[arg(long, default_value_t = Loss::Mse)]
    pub loss: Loss,
    /// Train on a seeded random subset of this many samples (all if fewer).
    #[arg(long)]
    pub max_samples: Option<usize>,
    /// Where to draw the loss plot (default: --out with extension .png).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Worker threads (default: all cores; the result is the same).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress output on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// A bar per epoch over its training samples, on a terminal only.
struct EpochBar {
    enabled: bool,
    bar: Option<ProgressBar>,
    epoch: usize,
}

impl EpochBar {
    fn batch(&mut self, done: usize, total: usize) {
        if !self.enabled {
            return;
        }
        let epoch = self.epoch;
        let bar = self.bar.get_or_insert_with(|| {
            let b = ProgressBar::new(total as u64);
            b.set_style(
                ProgressStyle::with_template(
                    "epoch {prefix} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} samples, eta {eta}",
                )
                .unwrap(),
            );
            b.set_prefix(epoch.to_string());
            b
        });
        bar.set_position(done as u64);
    }

    fn epoch_done(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        self.epoch += 1;
    }
}

pub fn train(args: &TrainArgs) -> Result<()> {
    crate::commands::set_threads(args.threads)?;
    // Everything checked before the data is read: the settings, and the
    // two outputs, writable and neither one of the inputs nor each other.
    let plot = args.plot.clone().unwrap_or_else(|| args.out.with_extension("png"));
    let mut inputs: Vec<(&str, &std::path::Path)> = args.data.iter().map(|p| ("data", p.as_path())).collect();
    inputs.extend(args.init.as_deref().map(|p| ("init", p)));
    crate::checks::not_an_input("out", &args.out, inputs.iter().copied())?;
    crate::checks::not_an_input("plot", &plot, inputs.iter().copied().chain([("out", args.out.as_path())]))?;
    crate::checks::output("out", &args.out)?;
    crate::checks::output("plot", &plot)?;
    let unchecked = TrainConfig {
        hidden: args.hidden.unwrap_or(48),
        seed: args.seed,
        batch_size: args.batch,
        learning_rate: args.lr,
        max_epochs: args.max_epochs,
        patience: args.patience,
        validation_fraction: args.validation,
        loss: args.loss,
    };
    unchecked.validate()?;
    let init = match &args.init {
        Some(path) => Some(Network::load(path).with_context(|| format!("cannot load network {}", path.display()))?),
        None => None,
    };
    // A size widen refuses is left to the trainer, which says what is wrong.
    let init = match (init, args.hidden) {
        (Some(net), Some(h)) => Some(net.widen(h, args.seed).unwrap_or(net)),
        (init, _) => init,
    };
    let mut data = Vec::new();
    for path in &args.data {
        data.extend(read_dataset(path)?);
    }
    if let Some(n) = args.max_samples {
        data = subsample(data, n, args.seed);
    }
    let config = TrainConfig { hidden: args.hidden.or(init.as_ref().map(|n| n.hidden)).unwrap_or(48), ..unchecked };
    let mut bar = EpochBar { enabled: !args.quiet && std::io::stderr().is_terminal(), bar: None, epoch: 1 };
    let bar = std::cell::RefCell::new(&mut bar);
    let mut stdout = std::io::stdout().lock();
    let mut write_error = None;
    let result = train_with_progress(
        &data,
        init,
        &config,
        &mut |report: &EpochReport| {
            bar.borrow_mut().epoch_done();
            let line = serde_json::to_string(report).expect("a report serialises");
            if let Err(e) = writeln!(stdout, "{line}").and_then(|_| stdout.flush()) {
                write_error.get_or_insert(e);
            }
        },
        &mut |done, total| bar.borrow_mut().batch(done, total),
    )?;
    if let Some(e) = write_error {
        return Err(e).context("cannot write to standard output");
    }
    result.network.save(&args.out)?;
    let series = |f: fn(&EpochReport) -> f32| result.epochs.iter().map(|e| (e.epoch as f64, f(e) as f64)).collect();
    plot_losses(
        &plot,
        "mean squared error per epoch",
        &[("training", series(|e| e.train_loss)), ("validation", series(|e| e.validation_loss))],
    )?;
    if !args.quiet {
        let best = result.epochs.iter().rev().find(|e| e.best).map_or(0, |e| e.epoch);
        eprintln!(
            "trained on {} samples: best validation loss {:.6} at epoch {best} of {}; wrote {} and {}",
            data.len(),
            result.best_validation_loss,
            result.epochs.len(),
            args.out.display(),
            plot.display()
        );
    }
    Ok(())
}
