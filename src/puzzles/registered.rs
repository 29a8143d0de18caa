// The one registration row of each puzzle (this file is also read by build.rs, so it holds
// nothing but the list: no inner doc comment, no `use`).

/// Every puzzle quandary knows, one row each, in the order the tour shows them: its module in
/// `src/puzzles/`, its [`Puzzle`](crate::puzzles::Puzzle) type, whether it has verbs of its own
/// (`src/verbs/<module>.rs`, whose `VERBS` table lists them), whether a front end may keep a
/// session of its boards (`src/verbs/<module>`'s `session`), and the folders of `data/` whose
/// puzzle files are compiled into the binary (a server request may name them).
///
/// Each room derives its own table from these rows by handing a macro of its own to this
/// one, which calls it with the rows: the registry's `PUZZLES`
/// ([`crate::runner::registry`]), the own verbs and kept sessions ([`crate::verbs`]), the
/// shipped files (`build.rs`). A puzzle added here gets every generic verb, its own verbs and
/// its data, and the test suite runs on it (`tests/conformance.rs` still wants its small
/// instances and a spoiled solution).
#[macro_export]
macro_rules! puzzles {
    ($then:ident) => {
        $then! {
            tank: TankAttack, own verbs: no, kept session: no, data: [];
            gunport: GunportProblem, own verbs: yes, kept session: no, data: [];
            chess: ChessAvoidance, own verbs: yes, kept session: no, data: ["data/chess"];
            battleship: BattleshipPuzzle, own verbs: yes, kept session: yes, data: [
                "data/battleship",
                "data/battleship/generated",
                "data/battleship/boats",
                "data/battleship/krazydad",
                "data/battleship/cpsat",
                "data/battleship/demystify"
            ];
            tantrix: TantrixPuzzle, own verbs: yes, kept session: no, data: [
                "data/tantrix/boards",
                "data/tantrix/cpsat-boards",
                "data/tantrix/large"
            ];
            template: LatinSquare, own verbs: no, kept session: no, data: [];
        }
    };
}
