//! `carc hint`: what a bot would play at the end of a record, with its view of the best few actions.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use serde_json::json;

use carcassonne::Actor;
use carcassonne_ai::BotSpec;

use crate::describe::pending_text;
use crate::read_record;

/// Options of `carc hint`.
#[derive(Debug, Args)]
pub(crate) struct HintArgs {
    /// The record (JSON); `-` reads standard input.
    file: PathBuf,
    /// The bot to ask: a level (easy, medium, hard), greedy, random, or an mcts spec such as
    /// `mcts:iterations=50000`.
    #[arg(long, default_value = "hard")]
    bot: BotSpec,
    /// The bot's seed (with an iteration budget, the same seed gives the same hint).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many of the best actions to show.
    #[arg(long, default_value_t = 5)]
    top: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn hint(a: &HintArgs) -> Result<String> {
    let game = read_record(&a.file)?.replay()?.game;
    let me = match game.decision().actor {
        Actor::Player(p) => p,
        Actor::Chance => bail!("the next step is a draw, which chance decides: there is nothing to hint"),
        Actor::Nobody => bail!("the game is over: there is nothing to hint"),
    };
    let mut bot = a.bot.build(a.seed);
    let thought = bot.think(&game, me)?;
    let is_mcts = a.bot.mcts().is_some();
    let shown: Vec<_> = thought.candidates.iter().take(a.top.max(1)).collect();
    let mut out = String::new();
    if a.json {
        let v = json!({
            "player": me.to_string(),
            "pending": pending_text(&game),
            "bot": bot.name(),
            "seed": a.seed,
            "action": game.action_text(thought.action),
            "iterations": thought.iterations,
            "seconds": thought.elapsed.as_secs_f64(),
            "value_kind": if is_mcts { "mean reward, 0..1" } else { "expected point margin" },
            "candidates": shown.iter().map(|c| json!({
                "action": game.action_text(c.action), "visits": c.visits, "value": c.value,
            })).collect::<Vec<_>>(),
            "legal_actions": game.legal_actions().len(),
        });
        outln!(out, "{}", serde_json::to_string_pretty(&v)?);
        return Ok(out);
    }
    outln!(out, "{} (turn {}).", pending_text(&game), game.turn());
    outln!(out, "{} suggests: {}", bot.name(), game.action_text(thought.action));
    if shown.is_empty() {
        let why = if game.legal_actions().len() == 1 { "the only legal action" } else { "a random choice" };
        outln!(out, "({why})");
        return Ok(out);
    }
    let w = shown.iter().map(|c| game.action_text(c.action).len()).max().unwrap_or(6).max(6);
    if is_mcts {
        outln!(out, "  {:<w$}  {:>8}  {:>6}", "action", "visits", "value");
        for c in &shown {
            outln!(out, "  {:<w$}  {:>8}  {:>6.3}", game.action_text(c.action), c.visits, c.value);
        }
        outln!(
            out,
            "{} iterations in {:.2} s over {} legal actions; value: {me}'s mean reward, 0 a sure loss, 1 a sure win \
             by a wide margin",
            thought.iterations,
            thought.elapsed.as_secs_f64(),
            game.legal_actions().len()
        );
    } else {
        outln!(out, "  {:<w$}  {:>7}", "action", "margin");
        for c in &shown {
            outln!(out, "  {:<w$}  {:>+7.1}", game.action_text(c.action), c.value);
        }
        outln!(
            out,
            "margin: {me}'s expected final points minus the others' (best and mean blended), after the rest of the turn"
        );
    }
    Ok(out)
}
