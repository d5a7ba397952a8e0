//! The engine's integration tests, in one binary (faster to link on small machines).

mod action_views;
mod catalogue;
mod fast_random;
mod inert;
mod perft;
mod random_games;
mod robustness;
mod rule_ids;
mod scenarios;
mod supplies;
mod symmetry;
mod util;
