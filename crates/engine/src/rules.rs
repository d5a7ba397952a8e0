//! Rule options (SPEC §V): one [`Rules`] value with a field per option, each with the default the SPEC names, read
//! and written by its key (`base.tiny_city_points`, `wagon.movement`, …).
//!
//! Options of modules that are switched off have no effect. The module switches themselves live in [`Modules`].

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

/// Why a rule option could not be set.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RuleError {
    /// No option has this key.
    #[error("unknown rule option `{0}` (see `carc rules` or docs/rules.md for the list)")]
    UnknownKey(String),
    /// The value is not one of the option's values.
    #[error("rule option `{key}` cannot be `{value}`; use one of: {allowed}")]
    BadValue {
        /// The key.
        key: String,
        /// The rejected value.
        value: String,
        /// The accepted values.
        allowed: String,
    },
}

macro_rules! option_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $var),+ }
        impl $name {
            /// Every value, the default first.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// The value's name in records and on the command line.
            pub const fn name(self) -> &'static str { match self { $($name::$var => $s),+ } }
            /// Parse a value name.
            pub fn from_name(s: &str) -> Option<$name> { $name::ALL.iter().copied().find(|v| v.name() == s) }
        }
        impl Default for $name { fn default() -> Self { $name::ALL[0] } }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.name()) }
        }
    };
}

option_enum!(
    /// VAR-01: what a completed two-tile city scores.
    TinyCityPoints { /// 2 per tile, as any city (C2/C3).
    Four = "four", /// 1 per tile and 1 per pennant (early C1).
    Two = "two" }
);
option_enum!(
    /// VAR-02: how fields score.
    FieldScoring { /// 3 per completed city adjacent to each field (BASE-16).
    PerField3 = "per_field_3" }
);
option_enum!(
    /// VAR-03: how a wagon moves after scoring.
    WagonMovement { /// Within one space of where it stood (WAGON-06).
    C2 = "c2", /// To a feature adjacent to the scored one (WAGON-07).
    C1 = "c1" }
);
option_enum!(
    /// VAR-04: unplaced abbeys at the end.
    AbbeyEndgame { /// Turns continue while abbeys are held (END-02).
    ContinueUntilNoPlacement = "continue_until_no_placement", /// One final round of abbey placements.
    C1FinalRound = "c1_final_round", /// Unplaced abbeys are lost.
    None = "none" }
);
option_enum!(
    /// VAR-06: when the dragon moves.
    DragonMoveTiming { /// Before scoring (HiG).
    BeforeScoring = "before_scoring", /// After scoring and wagons (RGG C1).
    AfterScoring = "after_scoring" }
);
option_enum!(
    /// VAR-07: whether the princess must remove a knight.
    PrincessRemoval { /// The player may remove one (C2).
    Optional = "optional", /// The player must when possible (C1).
    Mandatory = "mandatory" }
);
option_enum!(
    /// VAR-08: where the fairy goes.
    FairyPlacement { /// Next to one meeple (HiG).
    NextToMeeple = "next_to_meeple", /// On a tile holding a meeple of the mover (RGG/ZMG C1).
    OnTile = "on_tile" }
);
option_enum!(
    /// VAR-09: a dragon tile drawn before the first volcano.
    EarlyDragonTile { /// Set aside, reshuffled at the first volcano (DRAGON-02/03).
    SetAsideThenReshuffle = "set_aside_then_reshuffle", /// Put back and draw again (house rule).
    ReturnAndRedraw = "return_and_redraw" }
);
option_enum!(
    /// VAR-10: the fairy's turn point (only `automatic` exists in an engine).
    FairyTurnPointClaim { /// Always given.
    Automatic = "automatic" }
);
option_enum!(
    /// VAR-11: how the fairy scores.
    FairyBonusMode { /// 1 per turn and 3 per scoring.
    Standard = "standard", /// 5 per completed scoring, no turn point (house rule).
    HouseFive = "house_five" }
);
option_enum!(
    /// VAR-13: where crop-circle action A adds a meeple.
    CropAddScope { /// Same segment of the same tile (HiG).
    SameTileSameSegment = "same_tile_same_segment", /// Any tile of the feature (ZMG).
    AnyTileOfFeature = "any_tile_of_feature" }
);
option_enum!(
    /// VAR-15: the triangular crop circle.
    HalflingsCropMode { /// The active player names role and action for all (HALF-20).
    German = "german", /// Each player chooses (English rules).
    English = "english" }
);
option_enum!(
    /// VAR-16: counting with triangles.
    HalflingsScoring { /// Per space (1/2021).
    Jan2021 = "jan2021", /// Every tile counts (10/2015).
    Oct2015 = "oct2015", /// Roads and cities per tile, monasteries per space (2020).
    C22020 = "c2_2020", /// Per space (2014).
    C12014 = "c1_2014" }
);
option_enum!(
    /// VAR-18: held triangles when the stack runs out.
    HalflingsEndgame { /// Turns continue (END-02).
    ContinueUntilNoPlacement = "continue_until_no_placement", /// The game ends after the last square tile.
    EndAfterLastRegularTile = "end_after_last_regular_tile" }
);
option_enum!(
    /// VAR-19: the hill tie-break.
    HillTiebreak { /// Any meeple on a hill wins the tie.
    AtLeastOneOnHill = "at_least_one_on_hill", /// More meeples on hills wins (house rule).
    CountOnHill = "count_on_hill" }
);
option_enum!(
    /// VAR-20: how triangles are handed out.
    HalflingsSetup { /// Dealt at random.
    RandomDeal = "random_deal", /// Drafted in reverse turn order.
    Draft = "draft" }
);
option_enum!(
    /// VAR-21: gaps at a barn's corner.
    HalflingsBarnGaps { /// Not allowed (1/2021).
    Forbidden = "forbidden", /// Allowed (10/2015).
    Allowed = "allowed" }
);
option_enum!(
    /// VAR-22: meeples next to a triangle's occupant (only the German rule exists).
    HalflingsMeepleRule { /// HALF-09.
    German = "german" }
);

/// Which expansion mechanisms are switched on (SPEC §V "Module switches").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Modules {
    /// The abbey tile (ABBEY).
    pub abbey: bool,
    /// The mayor (MAYOR).
    pub mayor: bool,
    /// The wagon (WAGON).
    pub wagon: bool,
    /// The barn (BARN).
    pub barn: bool,
    /// The dragon and volcanoes (DRAGON).
    pub dragon: bool,
    /// The fairy (FAIRY).
    pub fairy: bool,
    /// The princess (PRINCESS).
    pub princess: bool,
    /// The magic portal (PORTAL).
    pub portal: bool,
    /// Crop circles (CROP).
    pub crop_circles: bool,
    /// Halflings (HALF).
    pub halflings: bool,
}

impl Modules {
    /// The module names, in SPEC order.
    pub const NAMES: [&'static str; 10] =
        ["abbey", "mayor", "wagon", "barn", "dragon", "fairy", "princess", "portal", "crop_circles", "halflings"];

    fn slot(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "abbey" => &mut self.abbey,
            "mayor" => &mut self.mayor,
            "wagon" => &mut self.wagon,
            "barn" => &mut self.barn,
            "dragon" => &mut self.dragon,
            "fairy" => &mut self.fairy,
            "princess" => &mut self.princess,
            "portal" => &mut self.portal,
            "crop_circles" => &mut self.crop_circles,
            "halflings" => &mut self.halflings,
            _ => return None,
        })
    }

    /// Whether the named module is on.
    pub fn get(&self, name: &str) -> Option<bool> {
        let mut c = *self;
        c.slot(name).map(|b| *b)
    }

    /// The names of the modules that are on.
    pub fn enabled(&self) -> impl Iterator<Item = &'static str> + '_ {
        Modules::NAMES.into_iter().filter(|n| self.get(n) == Some(true))
    }
}

/// Every rule option, with the SPEC's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// Module switches (`modules.<name>` = `true`/`false`).
    pub modules: Modules,
    /// VAR-01 `base.tiny_city_points`.
    pub tiny_city_points: TinyCityPoints,
    /// VAR-02 `base.field_scoring`.
    pub field_scoring: FieldScoring,
    /// VAR-03 `wagon.movement`.
    pub wagon_movement: WagonMovement,
    /// VAR-04 `abbey.endgame`.
    pub abbey_endgame: AbbeyEndgame,
    /// VAR-05 `barn.allow_second_barn`.
    pub barn_allow_second_barn: bool,
    /// VAR-06 `dragon.move_timing`.
    pub dragon_move_timing: DragonMoveTiming,
    /// VAR-07 `princess.removal`.
    pub princess_removal: PrincessRemoval,
    /// VAR-08 `fairy.placement`.
    pub fairy_placement: FairyPlacement,
    /// VAR-09 `dragon.early_dragon_tile`.
    pub dragon_early_dragon_tile: EarlyDragonTile,
    /// VAR-10 `fairy.turn_point_claim`.
    pub fairy_turn_point_claim: FairyTurnPointClaim,
    /// VAR-11 `fairy.bonus_mode`.
    pub fairy_bonus_mode: FairyBonusMode,
    /// VAR-12 `fairy.blocks_dragon` (default `true`).
    pub fairy_allows_dragon: bool,
    /// VAR-13 `crop.add_scope`.
    pub crop_add_scope: CropAddScope,
    /// VAR-14 `crop.action_a_mandatory`.
    pub crop_action_a_mandatory: bool,
    /// VAR-15 `halflings.crop_mode`.
    pub halflings_crop_mode: HalflingsCropMode,
    /// VAR-16 `halflings.scoring`.
    pub halflings_scoring: HalflingsScoring,
    /// VAR-17 `halflings.include_symbol_tiles`.
    pub halflings_include_symbol_tiles: bool,
    /// VAR-18 `halflings.endgame`.
    pub halflings_endgame: HalflingsEndgame,
    /// VAR-19 `halflings.hill_tiebreak`.
    pub halflings_hill_tiebreak: HillTiebreak,
    /// VAR-20 `halflings.setup`.
    pub halflings_setup: HalflingsSetup,
    /// VAR-20 `halflings.tiles_per_player` (default 3).
    pub halflings_tiles_per_player: TilesPerPlayer,
    /// VAR-21 `halflings.barn_gaps`.
    pub halflings_barn_gaps: HalflingsBarnGaps,
    /// VAR-22 `halflings.meeple_rule`.
    pub halflings_meeple_rule: HalflingsMeepleRule,
}

/// VAR-20 `halflings.tiles_per_player`: 1 to 24, default 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TilesPerPlayer(pub u8);

impl Default for TilesPerPlayer {
    fn default() -> Self {
        TilesPerPlayer(3)
    }
}

/// One row of the option table.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    /// The key.
    pub key: &'static str,
    /// The SPEC id.
    pub var: &'static str,
    /// The accepted values, the default first.
    pub values: &'static [&'static str],
    /// What it decides.
    pub doc: &'static str,
}

const BOOL: &[&str] = &["false", "true"];
const BOOL_TRUE_FIRST: &[&str] = &["true", "false"];

macro_rules! names {
    ($t:ty) => {{
        const N: usize = <$t>::ALL.len();
        const V: [&str; N] = {
            let mut v = [""; N];
            let mut i = 0;
            while i < N {
                v[i] = <$t>::ALL[i].name();
                i += 1;
            }
            v
        };
        &V
    }};
}

/// Every option key, in SPEC order (module switches are `modules.<name>`, see [`Modules::NAMES`]).
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        key: "base.tiny_city_points",
        var: "VAR-01",
        values: names!(TinyCityPoints),
        doc: "points of a completed two-tile city",
    },
    OptionInfo { key: "base.field_scoring", var: "VAR-02", values: names!(FieldScoring), doc: "how fields score" },
    OptionInfo {
        key: "wagon.movement",
        var: "VAR-03",
        values: names!(WagonMovement),
        doc: "where a scored wagon may move",
    },
    OptionInfo { key: "abbey.endgame", var: "VAR-04", values: names!(AbbeyEndgame), doc: "unplaced abbeys at the end" },
    OptionInfo { key: "barn.allow_second_barn", var: "VAR-05", values: BOOL, doc: "a barn in a field that has one" },
    OptionInfo {
        key: "dragon.move_timing",
        var: "VAR-06",
        values: names!(DragonMoveTiming),
        doc: "when the dragon moves",
    },
    OptionInfo {
        key: "princess.removal",
        var: "VAR-07",
        values: names!(PrincessRemoval),
        doc: "whether the princess must remove a knight",
    },
    OptionInfo { key: "fairy.placement", var: "VAR-08", values: names!(FairyPlacement), doc: "where the fairy goes" },
    OptionInfo {
        key: "dragon.early_dragon_tile",
        var: "VAR-09",
        values: names!(EarlyDragonTile),
        doc: "dragon tiles before the first volcano",
    },
    OptionInfo {
        key: "fairy.turn_point_claim",
        var: "VAR-10",
        values: names!(FairyTurnPointClaim),
        doc: "the fairy's turn point",
    },
    OptionInfo { key: "fairy.bonus_mode", var: "VAR-11", values: names!(FairyBonusMode), doc: "how the fairy scores" },
    OptionInfo {
        key: "fairy.blocks_dragon",
        var: "VAR-12",
        values: BOOL_TRUE_FIRST,
        doc: "whether the fairy's space stops the dragon",
    },
    OptionInfo {
        key: "crop.add_scope",
        var: "VAR-13",
        values: names!(CropAddScope),
        doc: "where crop action A adds a meeple",
    },
    OptionInfo {
        key: "crop.action_a_mandatory",
        var: "VAR-14",
        values: BOOL,
        doc: "whether crop action A is compulsory",
    },
    OptionInfo {
        key: "halflings.crop_mode",
        var: "VAR-15",
        values: names!(HalflingsCropMode),
        doc: "the triangular crop circle",
    },
    OptionInfo {
        key: "halflings.scoring",
        var: "VAR-16",
        values: names!(HalflingsScoring),
        doc: "counting with triangles",
    },
    OptionInfo { key: "halflings.include_symbol_tiles", var: "VAR-17", values: BOOL, doc: "the four symbol triangles" },
    OptionInfo {
        key: "halflings.endgame",
        var: "VAR-18",
        values: names!(HalflingsEndgame),
        doc: "held triangles at the end",
    },
    OptionInfo {
        key: "halflings.hill_tiebreak",
        var: "VAR-19",
        values: names!(HillTiebreak),
        doc: "the hill tie-break",
    },
    OptionInfo {
        key: "halflings.setup",
        var: "VAR-20",
        values: names!(HalflingsSetup),
        doc: "how triangles are handed out",
    },
    OptionInfo {
        key: "halflings.tiles_per_player",
        var: "VAR-20",
        values: &["3", "1..24"],
        doc: "triangles per player",
    },
    OptionInfo {
        key: "halflings.barn_gaps",
        var: "VAR-21",
        values: names!(HalflingsBarnGaps),
        doc: "gaps at a barn's corner",
    },
    OptionInfo {
        key: "halflings.meeple_rule",
        var: "VAR-22",
        values: names!(HalflingsMeepleRule),
        doc: "meeples beside a triangle's occupant",
    },
];

fn parse_enum<T: Copy>(key: &str, value: &str, from: fn(&str) -> Option<T>, all: &[&str]) -> Result<T, RuleError> {
    from(value).ok_or_else(|| RuleError::BadValue { key: key.into(), value: value.into(), allowed: all.join(", ") })
}

fn parse_bool(key: &str, value: &str) -> Result<bool, RuleError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(RuleError::BadValue { key: key.into(), value: value.into(), allowed: "true, false".into() }),
    }
}

impl Rules {
    /// Set an option by key.
    ///
    /// # Errors
    /// An unknown key or a value the option does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let value = value.trim();
        if let Some(m) = key.strip_prefix("modules.") {
            let v = parse_bool(key, value)?;
            *self.modules.slot(m).ok_or_else(|| RuleError::UnknownKey(key.into()))? = v;
            return Ok(());
        }
        macro_rules! e {
            ($field:ident, $t:ty) => {
                self.$field = parse_enum(key, value, <$t>::from_name, names!($t))?
            };
        }
        match key {
            "base.tiny_city_points" => e!(tiny_city_points, TinyCityPoints),
            "base.field_scoring" => e!(field_scoring, FieldScoring),
            "wagon.movement" => e!(wagon_movement, WagonMovement),
            "abbey.endgame" => e!(abbey_endgame, AbbeyEndgame),
            "barn.allow_second_barn" => self.barn_allow_second_barn = parse_bool(key, value)?,
            "dragon.move_timing" => e!(dragon_move_timing, DragonMoveTiming),
            "princess.removal" => e!(princess_removal, PrincessRemoval),
            "fairy.placement" => e!(fairy_placement, FairyPlacement),
            "dragon.early_dragon_tile" => e!(dragon_early_dragon_tile, EarlyDragonTile),
            "fairy.turn_point_claim" => e!(fairy_turn_point_claim, FairyTurnPointClaim),
            "fairy.bonus_mode" => e!(fairy_bonus_mode, FairyBonusMode),
            "fairy.blocks_dragon" => self.fairy_allows_dragon = !parse_bool(key, value)?,
            "crop.add_scope" => e!(crop_add_scope, CropAddScope),
            "crop.action_a_mandatory" => self.crop_action_a_mandatory = parse_bool(key, value)?,
            "halflings.crop_mode" => e!(halflings_crop_mode, HalflingsCropMode),
            "halflings.scoring" => e!(halflings_scoring, HalflingsScoring),
            "halflings.include_symbol_tiles" => self.halflings_include_symbol_tiles = parse_bool(key, value)?,
            "halflings.endgame" => e!(halflings_endgame, HalflingsEndgame),
            "halflings.hill_tiebreak" => e!(halflings_hill_tiebreak, HillTiebreak),
            "halflings.setup" => e!(halflings_setup, HalflingsSetup),
            "halflings.tiles_per_player" => {
                self.halflings_tiles_per_player = match value.parse::<u8>() {
                    Ok(n @ 1..=24) => TilesPerPlayer(n),
                    _ => {
                        return Err(RuleError::BadValue {
                            key: key.into(),
                            value: value.into(),
                            allowed: "a number from 1 to 24".into(),
                        });
                    }
                }
            }
            "halflings.barn_gaps" => e!(halflings_barn_gaps, HalflingsBarnGaps),
            "halflings.meeple_rule" => e!(halflings_meeple_rule, HalflingsMeepleRule),
            _ => return Err(RuleError::UnknownKey(key.into())),
        }
        Ok(())
    }

    /// Read an option by key.
    pub fn get(&self, key: &str) -> Option<String> {
        if let Some(m) = key.strip_prefix("modules.") {
            return self.modules.get(m).map(|b| b.to_string());
        }
        Some(match key {
            "base.tiny_city_points" => self.tiny_city_points.name().into(),
            "base.field_scoring" => self.field_scoring.name().into(),
            "wagon.movement" => self.wagon_movement.name().into(),
            "abbey.endgame" => self.abbey_endgame.name().into(),
            "barn.allow_second_barn" => self.barn_allow_second_barn.to_string(),
            "dragon.move_timing" => self.dragon_move_timing.name().into(),
            "princess.removal" => self.princess_removal.name().into(),
            "fairy.placement" => self.fairy_placement.name().into(),
            "dragon.early_dragon_tile" => self.dragon_early_dragon_tile.name().into(),
            "fairy.turn_point_claim" => self.fairy_turn_point_claim.name().into(),
            "fairy.bonus_mode" => self.fairy_bonus_mode.name().into(),
            "fairy.blocks_dragon" => (!self.fairy_allows_dragon).to_string(),
            "crop.add_scope" => self.crop_add_scope.name().into(),
            "crop.action_a_mandatory" => self.crop_action_a_mandatory.to_string(),
            "halflings.crop_mode" => self.halflings_crop_mode.name().into(),
            "halflings.scoring" => self.halflings_scoring.name().into(),
            "halflings.include_symbol_tiles" => self.halflings_include_symbol_tiles.to_string(),
            "halflings.endgame" => self.halflings_endgame.name().into(),
            "halflings.hill_tiebreak" => self.halflings_hill_tiebreak.name().into(),
            "halflings.setup" => self.halflings_setup.name().into(),
            "halflings.tiles_per_player" => self.halflings_tiles_per_player.0.to_string(),
            "halflings.barn_gaps" => self.halflings_barn_gaps.name().into(),
            "halflings.meeple_rule" => self.halflings_meeple_rule.name().into(),
            _ => return None,
        })
    }

    /// Every key (options, then module switches) with its current value.
    pub fn entries(&self) -> Vec<(String, String)> {
        OPTIONS
            .iter()
            .map(|o| o.key.to_string())
            .chain(Modules::NAMES.iter().map(|m| format!("modules.{m}")))
            .map(|k| {
                let v = self.get(&k).expect("every listed key is readable");
                (k, v)
            })
            .collect()
    }

    /// The options that differ from the defaults.
    pub fn non_defaults(&self) -> BTreeMap<String, String> {
        let d = Rules::default();
        self.entries().into_iter().filter(|(k, v)| d.get(k).as_deref() != Some(v)).collect()
    }
}

impl Serialize for Rules {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.non_defaults().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        let map = BTreeMap::<String, serde_json::Value>::deserialize(d)?;
        let mut r = Rules::default();
        for (k, v) in map {
            let text = match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            r.set(&k, &text).map_err(serde::de::Error::custom)?;
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_spec_defaults() {
        let r = Rules::default();
        assert_eq!(r.get("base.tiny_city_points").unwrap(), "four"); // VAR-01
        assert_eq!(r.get("wagon.movement").unwrap(), "c2"); // VAR-03
        assert_eq!(r.get("abbey.endgame").unwrap(), "continue_until_no_placement"); // VAR-04
        assert_eq!(r.get("fairy.blocks_dragon").unwrap(), "true"); // VAR-12
        assert_eq!(r.get("halflings.scoring").unwrap(), "jan2021"); // VAR-16
        assert_eq!(r.get("halflings.tiles_per_player").unwrap(), "3"); // VAR-20
        assert!(r.non_defaults().is_empty());
        for o in OPTIONS {
            assert_eq!(r.get(o.key).as_deref(), Some(o.values[0]), "{}", o.key);
        }
    }

    #[test]
    fn options_are_set_by_name() {
        let mut r = Rules::default();
        r.set("base.tiny_city_points", "two").unwrap();
        assert_eq!(r.tiny_city_points, TinyCityPoints::Two);
        r.set("fairy.blocks_dragon", "false").unwrap();
        assert!(r.fairy_allows_dragon);
        r.set("modules.abbey", "true").unwrap();
        assert!(r.modules.abbey);
        assert!(matches!(r.set("base.tiny_city_points", "three"), Err(RuleError::BadValue { .. })));
        assert!(matches!(r.set("base.nope", "x"), Err(RuleError::UnknownKey(_))));
        let json = serde_json::to_string(&r).unwrap();
        let back: Rules = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }
}
