//! `hatetris verify` and `hatetris show`: play a replay as the official game does.

use crate::input::read_replay;
use anyhow::Result;
use clap::Args;
use hatetris_game::frozen::{freezing_rate, rows_frozen_at, HOLD};
use hatetris_game::{play, Enemy, Rules};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The enemy the replay was played against.
    #[arg(long, default_value = "hatetris")]
    pub enemy: Enemy,
    /// Print one JSON line per lock (the fixture trace format) instead.
    #[arg(long)]
    pub trace: bool,
    /// Also draw the final well on standard error.
    #[arg(long)]
    pub show: bool,
    /// Replay file (raw, hex, Base65536 or Base2048); `-` or nothing for standard input.
    pub file: Option<PathBuf>,
}

pub fn verify(args: &VerifyArgs) -> Result<()> {
    let keys = read_replay(args.file.as_deref())?;
    let rules = Rules::STANDARD;
    let mut lock = 0;
    // A reader that stops early (`| head`) ends the process in `main`'s
    // SIGPIPE setting, as for every command.
    let line = |v: serde_json::Value| println!("{v}");
    if args.trace {
        let game = hatetris_game::Game::new(rules, args.enemy);
        line(json!({ "first_piece": game.piece().letter().to_string() }));
    }
    let mut wells = Vec::new();
    let out = play(rules, args.enemy, &keys, |game, l| {
        wells.push(*game.well());
        if args.trace {
            lock += 1;
            line(json!({
                    "lock": lock,
                    "score": game.score(),
                    "well": game.well().rows,
                    "next_piece": l.next.map(|p| p.letter().to_string()),
                    "game_over": l.game_over,
            }));
        }
    });
    if !args.trace {
        println!(
            "{}",
            json!({
                "score": out.score,
                "game_over": out.game_over,
                "keys": out.keys,
                "keys_used": out.keys_used,
                "pieces": out.pieces,
                "frozen_per_100": freezing_rate(&wells, HOLD),
                "rows_frozen_at": rows_frozen_at(&wells),
                "well": out.well.rows,
            })
        );
    }
    if args.show {
        eprint!("{}", out.well.draw(rules));
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[arg(long, default_value = "hatetris")]
    pub enemy: Enemy,
    /// Replay file; `-` or nothing for standard input.
    pub file: Option<PathBuf>,
}

/// Draws the well a replay ends in, with its score.
pub fn show(args: &ShowArgs) -> Result<()> {
    let keys = read_replay(args.file.as_deref())?;
    let out = play(Rules::STANDARD, args.enemy, &keys, |_, _| {});
    print!("{}", out.well.draw(Rules::STANDARD));
    println!("score {}{}", out.score, if out.game_over { " (game over)" } else { "" });
    Ok(())
}
