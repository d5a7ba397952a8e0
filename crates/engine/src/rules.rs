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
    #[error("unknown rule option `{0}` (`carc rules` lists them all)")]
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
        impl OptionValue for $name {
            fn parse(s: &str) -> Option<$name> { $name::from_name(s) }
            fn text(self) -> String { self.name().to_string() }
            fn values() -> Vec<&'static str> { $name::ALL.iter().map(|v| v.name()).collect() }
        }
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
    /// VAR-12: whether the fairy's space stops the dragon.
    FairyBlocksDragon { /// The dragon may not enter it (default).
    Yes = "true", /// The dragon may enter and stop there but eats nothing there (house rule).
    No = "false" }
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
option_enum!(
    /// VAR-23: the pennant of Princess & Dragon tile S, the portal tile with a three-sided city (D-10).
    TileSPennant { /// None, as the 2nd-edition art shows.
    C2 = "c2", /// One, as the 1st-edition art shows.
    C1 = "c1" }
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

/// A value a rule option can take.
pub trait OptionValue: Sized + Copy {
    /// Read a value from its name.
    fn parse(s: &str) -> Option<Self>;
    /// The value's name.
    fn text(self) -> String;
    /// Every accepted value, the default first.
    fn values() -> Vec<&'static str>;
}

impl OptionValue for bool {
    fn parse(s: &str) -> Option<bool> {
        s.parse().ok()
    }
    fn text(self) -> String {
        self.to_string()
    }
    fn values() -> Vec<&'static str> {
        vec!["false", "true"]
    }
}

/// VAR-20 `halflings.tiles_per_player`: 1 to 24, default 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TilesPerPlayer(pub u8);

impl Default for TilesPerPlayer {
    fn default() -> Self {
        TilesPerPlayer(3)
    }
}

impl OptionValue for TilesPerPlayer {
    fn parse(s: &str) -> Option<TilesPerPlayer> {
        s.parse::<u8>().ok().filter(|n| (1..=24).contains(n)).map(TilesPerPlayer)
    }
    fn text(self) -> String {
        self.0.to_string()
    }
    fn values() -> Vec<&'static str> {
        vec!["3", "1..24"]
    }
}

/// One row of the option table.
#[derive(Clone, Debug)]
pub struct OptionInfo {
    /// The key.
    pub key: &'static str,
    /// The SPEC id.
    pub var: &'static str,
    /// The accepted values, the default first.
    pub values: Vec<&'static str>,
    /// What it decides.
    pub doc: &'static str,
}

fn set_slot<T: OptionValue>(slot: &mut T, key: &str, value: &str) -> Result<(), RuleError> {
    *slot = T::parse(value).ok_or_else(|| RuleError::BadValue {
        key: key.into(),
        value: value.into(),
        allowed: T::values().join(", "),
    })?;
    Ok(())
}

/// Declares every option once: its SPEC id, key, field, type and what it decides. The struct, the table of
/// [`options`] and reading and writing by key all come from this list.
macro_rules! rules_table {
    ($($var:literal $key:literal $field:ident: $ty:ty => $what:literal;)*) => {
        /// Every rule option, with the SPEC's defaults.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub struct Rules {
            /// Module switches (`modules.<name>` = `true`/`false`).
            pub modules: Modules,
            $(
                #[doc = concat!($var, " `", $key, "`: ", $what, ".")]
                pub $field: $ty,
            )*
        }

        /// Every option (module switches aside), in SPEC order.
        pub fn options() -> Vec<OptionInfo> {
            vec![$(OptionInfo { key: $key, var: $var, values: <$ty as OptionValue>::values(), doc: $what },)*]
        }

        impl Rules {
            fn set_option(&mut self, key: &str, value: &str) -> Option<Result<(), RuleError>> {
                match key {
                    $($key => Some(set_slot(&mut self.$field, key, value)),)*
                    _ => None,
                }
            }

            fn get_option(&self, key: &str) -> Option<String> {
                match key {
                    $($key => Some(self.$field.text()),)*
                    _ => None,
                }
            }
        }
    };
}

rules_table! {
    "VAR-01" "base.tiny_city_points" tiny_city_points: TinyCityPoints => "points of a completed two-tile city";
    "VAR-02" "base.field_scoring" field_scoring: FieldScoring => "how fields score";
    "VAR-03" "wagon.movement" wagon_movement: WagonMovement => "where a scored wagon may move";
    "VAR-04" "abbey.endgame" abbey_endgame: AbbeyEndgame => "unplaced abbeys at the end";
    "VAR-05" "barn.allow_second_barn" barn_allow_second_barn: bool => "a barn in a field that has one";
    "VAR-06" "dragon.move_timing" dragon_move_timing: DragonMoveTiming => "when the dragon moves";
    "VAR-07" "princess.removal" princess_removal: PrincessRemoval => "whether the princess must remove a knight";
    "VAR-08" "fairy.placement" fairy_placement: FairyPlacement => "where the fairy goes";
    "VAR-09" "dragon.early_dragon_tile" dragon_early_dragon_tile: EarlyDragonTile => "dragon tiles before the first volcano";
    "VAR-10" "fairy.turn_point_claim" fairy_turn_point_claim: FairyTurnPointClaim => "the fairy's turn point";
    "VAR-11" "fairy.bonus_mode" fairy_bonus_mode: FairyBonusMode => "how the fairy scores";
    "VAR-12" "fairy.blocks_dragon" fairy_blocks_dragon: FairyBlocksDragon => "whether the fairy's space stops the dragon";
    "VAR-13" "crop.add_scope" crop_add_scope: CropAddScope => "where crop action A adds a meeple";
    "VAR-14" "crop.action_a_mandatory" crop_action_a_mandatory: bool => "whether crop action A is compulsory";
    "VAR-15" "halflings.crop_mode" halflings_crop_mode: HalflingsCropMode => "the triangular crop circle";
    "VAR-16" "halflings.scoring" halflings_scoring: HalflingsScoring => "counting with triangles";
    "VAR-17" "halflings.include_symbol_tiles" halflings_include_symbol_tiles: bool => "the four symbol triangles";
    "VAR-18" "halflings.endgame" halflings_endgame: HalflingsEndgame => "held triangles at the end";
    "VAR-19" "halflings.hill_tiebreak" halflings_hill_tiebreak: HillTiebreak => "the hill tie-break";
    "VAR-20" "halflings.setup" halflings_setup: HalflingsSetup => "how triangles are handed out";
    "VAR-20" "halflings.tiles_per_player" halflings_tiles_per_player: TilesPerPlayer => "triangles per player";
    "VAR-21" "halflings.barn_gaps" halflings_barn_gaps: HalflingsBarnGaps => "gaps at a barn's corner";
    "VAR-22" "halflings.meeple_rule" halflings_meeple_rule: HalflingsMeepleRule => "meeples beside a triangle's occupant";
    "VAR-23" "pd.tile_s_pennant" pd_tile_s_pennant: TileSPennant => "the pennant on the portal tile pd/S";
}

impl Rules {
    /// Set an option by key (`modules.<name>` for the module switches).
    ///
    /// # Errors
    /// An unknown key or a value the option does not take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let value = value.trim();
        if let Some(m) = key.strip_prefix("modules.") {
            let slot = self.modules.slot(m).ok_or_else(|| RuleError::UnknownKey(key.into()))?;
            return set_slot(slot, key, value);
        }
        self.set_option(key, value).unwrap_or_else(|| Err(RuleError::UnknownKey(key.into())))
    }

    /// Read an option by key.
    pub fn get(&self, key: &str) -> Option<String> {
        match key.strip_prefix("modules.") {
            Some(m) => self.modules.get(m).map(|b| b.to_string()),
            None => self.get_option(key),
        }
    }

    /// Every key (options, then module switches) with its current value.
    pub fn entries(&self) -> Vec<(String, String)> {
        options()
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
        assert_eq!(r.get("pd.tile_s_pennant").unwrap(), "c2"); // VAR-23
        assert!(r.non_defaults().is_empty());
        for o in options() {
            assert_eq!(r.get(o.key).as_deref(), Some(o.values[0]), "{}", o.key);
        }
        assert_eq!(options().len(), 24);
    }

    #[test]
    fn options_are_set_by_name() {
        let mut r = Rules::default();
        r.set("base.tiny_city_points", "two").unwrap();
        assert_eq!(r.tiny_city_points, TinyCityPoints::Two);
        r.set("fairy.blocks_dragon", "false").unwrap();
        assert_eq!(r.fairy_blocks_dragon, FairyBlocksDragon::No);
        assert!(matches!(r.set("halflings.tiles_per_player", "30"), Err(RuleError::BadValue { .. })));
        r.set("halflings.tiles_per_player", "5").unwrap();
        assert_eq!(r.get("halflings.tiles_per_player").unwrap(), "5");
        r.set("modules.abbey", "true").unwrap();
        assert!(r.modules.abbey);
        assert!(matches!(r.set("base.tiny_city_points", "three"), Err(RuleError::BadValue { .. })));
        assert!(matches!(r.set("base.nope", "x"), Err(RuleError::UnknownKey(_))));
        let json = serde_json::to_string(&r).unwrap();
        let back: Rules = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }
}
