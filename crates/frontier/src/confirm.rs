//! How a page is confirmed against one candidate representative (the `class-paths`
//! summaries, ALGORITHM.md §5): what its host has learned that bears on the comparison
//! ([`Seen`]), and the comparison itself, each rule that keeps two pages apart named by the
//! [`Compared`] it returns (`forms.rs`, `tables.rs`, `prose.rs`, `frame.rs`, `blocks.rs`,
//! `articles.rs`, `varying.rs`). A child of `dedup.rs`: it reads the dedup state directly.

use std::cell::OnceCell;

use crate::frame::{Brings, Frame, MIN_COMPARED, Novel};
use crate::varying::Varying;

use super::Dedup;

/// A kept representative within the threshold of a page (or beyond it, [`Candidate::far`]),
/// and how the confirmation compared the two ([`Dedup::candidates`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Candidate {
    /// The representative's page id.
    pub id: u64,
    /// Bits between the two fingerprints.
    pub distance: u32,
    /// The similarity the confirmation read (`None`: their forms or tables differ, no
    /// candidate).
    pub similarity: Option<f64>,
    /// Which paths it read.
    pub compared: Compared,
    /// How many paths the similarity was read on, of the two pages' paths together (`None`:
    /// their forms or tables differ): a similarity read on 6 of 140 paths says little of the
    /// pages.
    pub paths: Option<(usize, usize)>,
    /// Whether it lies beyond the threshold (within `far-reach` × the threshold): it needs
    /// `min-similarity` + `far-margin`, and is compared only when none within the
    /// threshold is confirmed (`far.rs`).
    pub far: bool,
}

/// Which paths of two pages the confirmation compares ([`Candidate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compared {
    /// All their paths.
    Whole,
    /// All but the paths the host has learned to vary (`varying-after`).
    WithoutVarying,
    /// Both pages are mostly the host's frame: their own parts, without the frame and the
    /// varying paths.
    OwnParts,
    /// Both mostly frame, with too few own paths left: all but the frame.
    WithoutFrame,
    /// Their own forms ask for other fields: never joined.
    FormsDiffer,
    /// One holds a form of its own, the other is mostly the host's frame and holds no field
    /// of its own: never joined.
    FormAgainstNone,
    /// One is the other with a form more (`forms.rs`): never joined.
    FormBesideNone,
    /// Their own tables are other tables: never joined.
    TablesDiffer,
    /// One of the two is mostly the host's frame and the other lacks most of its own part:
    /// never joined.
    OwnPartAbsent,
    /// The page is mostly the host's frame and brings paths the representative lacks and
    /// no representative of the host has: never joined.
    BringsNew,
    /// The page brings paths the representative lacks and no representative of the host
    /// has, a third or more of its own part (the paths neither the host's frame nor learned
    /// to vary): never joined.
    BringsNewPart,
    /// The page brings paths the representative lacks and no representative of the host
    /// has, and is less alike than a match beyond the threshold must be
    /// (`min-similarity` + `far-margin`): not joined.
    BringsNewUnlike,
    /// One is an article and the other holds no prose (`prose.rs`): never joined.
    ProseDiffers,
    /// One is an article and the other, with a line or two of prose at most, holds a
    /// block of its own the article lacks (`prose.rs`): never joined.
    BlockBesideArticle,
    /// Each holds paths of its own the other lacks, their articles' blocks aside
    /// (`blocks.rs`): never joined.
    EachOwn,
    /// Both are articles (`articles.rs`): all but their articles' blocks and the paths the
    /// host has learned to vary.
    Articles,
}

impl Compared {
    /// How `replay --why` names it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Whole => "all paths",
            Self::WithoutVarying => "without the paths the host learned to vary",
            Self::OwnParts => "both mostly the host's frame: their own parts only",
            Self::WithoutFrame => "both mostly frame, few own paths: without the frame",
            Self::FormsDiffer => "their forms ask for other fields",
            Self::FormAgainstNone => {
                "one holds a form of its own, the other is mostly the host's frame without one"
            }
            Self::FormBesideNone => "one is the other with a form more",
            Self::TablesDiffer => "their tables are other tables",
            Self::OwnPartAbsent => {
                "one is mostly the host's frame, and the other lacks most of its own part"
            }
            Self::BringsNew => {
                "the page is mostly the host's frame and brings paths no kept page of the host has"
            }
            Self::BringsNewPart => {
                "the page brings paths no kept page of the host has, a third of its own part or more"
            }
            Self::BringsNewUnlike => {
                "the page brings paths no kept page of the host has, and is less alike than a far match must be"
            }
            Self::ProseDiffers => "one is an article, the other holds no prose",
            Self::BlockBesideArticle => {
                "one is an article, the other a line or two of prose beside a block the article lacks"
            }
            Self::EachOwn => "each holds a block the other lacks (their articles' blocks aside)",
            Self::Articles => {
                "two articles: without their articles' blocks and the paths the host learned to vary"
            }
        }
    }
}

/// What the host has learned that bears on comparing one page with its candidates.
pub(super) struct Seen<'a> {
    after: u32,
    varying: Option<&'a Varying>,
    flags: Option<Vec<crate::varying::Flag>>,
    frame: Option<&'a Frame>,
    host_frame: Option<&'a Frame>,
    fields: Vec<u32>,
    /// Whether the host's forms still tell kinds apart (it has kept fewer than
    /// `forms::MAX_FORMS` pages with a form of their own).
    forms_open: bool,
    tables: Vec<u32>,
    /// The page's paths of prose (`prose.rs`), counted once for all its candidates.
    prose: usize,
    /// The paths of the page's article blocks (`articles.rs`), increasing.
    article: &'a [u32],
    /// Whether the page holds a form or a table of its own (`blocks.rs`, `holds_marks`).
    marks: bool,
    /// The similarity a page that brings paths no representative of the host has must
    /// reach (`frame.rs`, [`Novel::brings`]): a far match's.
    novel_bar: f64,
    /// What the page holds that no representative of the host has, read once it is asked
    /// (`frame.rs`).
    novel: OnceCell<Novel>,
}

impl Dedup {
    /// What the host has learned that bears on comparing `summary` with its candidates.
    pub(super) fn seen_by<'a>(
        &'a self,
        host: &str,
        summary: &[u32],
        article: &'a [u32],
    ) -> Seen<'a> {
        let scope = self.config.scope.of(host);
        let after = self.config.varying_after;
        let varying = self.varying.get(scope);
        // Where both pages are mostly the host's frame, their own parts decide (`frame.rs`).
        let host_frame = self.frames.get(scope);
        // Two pages with different forms of their own are two kinds (`forms.rs`), until the
        // host has kept `MAX_FORMS` pages with a form.
        let forms = self.forms.get(scope).copied().unwrap_or(0);
        Seen {
            after,
            varying,
            // The page's own paths are looked up once, not once per candidate.
            flags: varying.and_then(|v| v.flags(summary, after)),
            frame: host_frame.filter(|f| f.mostly_frame(summary)),
            host_frame,
            fields: if forms < crate::forms::MAX_FORMS {
                crate::forms::own_fields(summary, host_frame)
            } else {
                Vec::new()
            },
            forms_open: forms < crate::forms::MAX_FORMS,
            // And so are two pages whose own tables share less than half their columns
            // (`tables.rs`), until the host has kept `MAX_TABLES` pages with a table.
            tables: if self.tables.get(scope).copied().unwrap_or(0) < crate::tables::MAX_TABLES {
                crate::tables::own_columns(summary, host_frame)
            } else {
                Vec::new()
            },
            prose: crate::prose::prose_paths(summary),
            article,
            marks: host_frame.is_some_and(|f| crate::blocks::holds_marks(summary, f)),
            novel_bar: self
                .config
                .min_similarity
                .map_or(1.0, |min| self.config.far_similarity(min)),
            novel: OnceCell::new(),
        }
    }

    /// How alike `summary` and representative `id`'s are: the paths the two share and the
    /// paths they hold together, both counted on the paths compared, and how they were
    /// compared; `Err` saying why not when their forms ask for other fields (or `id` has no
    /// summary), their tables are other tables, or one is an article and the other holds no
    /// prose.
    pub(super) fn compare(
        &self,
        seen: &Seen<'_>,
        summary: &[u32],
        id: u64,
    ) -> Result<((usize, usize), Compared), Compared> {
        let theirs = self.summaries.get(&id).ok_or(Compared::FormsDiffer)?;
        if crate::forms::different_forms(&seen.fields, theirs, seen.host_frame) {
            return Err(Compared::FormsDiffer);
        }
        // A page that is its frame and a form against one that is its frame alone
        // (`forms.rs`).
        if seen.forms_open
            && let Some(f) = seen.host_frame
            && crate::forms::form_against_none(&seen.fields, seen.frame.is_some(), theirs, f)
        {
            return Err(Compared::FormAgainstNone);
        }
        // A page and the same page with a form more (`forms.rs`).
        if seen.forms_open
            && let Some(f) = seen.host_frame
            && f.learned()
            && crate::forms::form_beside_none(summary, theirs, |p| {
                f.is_frame(p) || seen.varying.is_some_and(|v| v.is_varying(p, seen.after))
            })
        {
            return Err(Compared::FormBesideNone);
        }
        if crate::tables::different_tables(&seen.tables, theirs, seen.host_frame) {
            return Err(Compared::TablesDiffer);
        }
        // Their paths of prose, read once for the rules below.
        let their_prose = crate::prose::prose_paths(theirs);
        if crate::prose::differs(seen.prose, their_prose).is_some() {
            return Err(Compared::ProseDiffers);
        }
        let (varying, after) = (seen.varying, seen.after);
        let varies = |p| varying.is_some_and(|v| v.is_varying(p, after));
        // What the page brings that the host never kept (`frame.rs`), read once per page.
        let brings = |f: &Frame| {
            seen.novel
                .get_or_init(|| f.novel(summary, seen.article, varies))
                .brings(theirs)
        };
        let theirs_mostly = seen.host_frame.is_some_and(|f| f.mostly_frame(theirs));
        // One mostly frame, the other not: the first's own part must be in the other
        // (`frame.rs`).
        if let Some(f) = seen.host_frame
            && seen.frame.is_some() != theirs_mostly
        {
            let (small, big): (&[u32], &[u32]) = if theirs_mostly {
                (theirs, summary)
            } else {
                (summary, theirs)
            };
            if f.own_part_absent(small, big, varies) {
                return Err(Compared::OwnPartAbsent);
            }
            // The page mostly frame: what it brings that the host has never kept is its own
            // kind (`frame.rs`).
            if !theirs_mostly && brings(f).any() {
                return Err(Compared::BringsNew);
            }
        }
        let their_article = self.articles.get(&id).map_or(&[][..], |a| &a[..]);
        let is_block =
            |p: u32| crate::same::holds(seen.article, p) || crate::same::holds(their_article, p);
        // Each with a block of its own, their articles' blocks aside: two kinds; an
        // application's prose blocks are blocks too (`blocks.rs`).
        let skip = |p| seen.host_frame.is_some_and(|f| f.is_frame(p)) || varies(p);
        let reading = if seen.marks
            && seen
                .host_frame
                .is_some_and(|f| crate::blocks::holds_marks(theirs, f))
        {
            crate::blocks::Own::Prose
        } else {
            crate::blocks::Own::NoProse
        };
        // An article and a page of a line or two with a block of its own (`prose.rs`).
        if crate::prose::block_beside_article(
            (summary, seen.prose),
            (theirs, their_prose),
            (skip, is_block),
        )
        .is_some()
        {
            return Err(Compared::BlockBesideArticle);
        }
        if crate::blocks::each_holds_own(
            summary,
            seen.prose,
            theirs,
            their_prose,
            (skip, is_block),
            reading,
        ) {
            return Err(Compared::EachOwn);
        }
        // Two articles: their articles' blocks left out, unless too few paths would be left
        // (`articles.rs`).
        let articles = crate::articles::both(
            (summary, seen.prose, seen.article.len()),
            (theirs, their_prose, their_article.len()),
        ) && crate::same::overlap_without(summary, theirs, is_block).1
            >= MIN_COMPARED;
        let block = |p: u32| articles && is_block(p);
        // The paths learned to vary, and those `skip` names, left out (`varying.rs`).
        let without = |skip: &dyn Fn(u32) -> bool| match (varying, &seen.flags) {
            (Some(v), Some(flags)) => {
                v.overlap_flagged(summary, flags, theirs, id, after, |p| skip(p) || block(p))
            }
            _ => crate::same::overlap_without(summary, theirs, |p| skip(p) || block(p)),
        };
        let compared = match seen.frame {
            Some(f) if theirs_mostly => {
                let own = without(&|id| f.is_frame(id));
                if own.1 >= MIN_COMPARED {
                    (own, Compared::OwnParts)
                } else {
                    // Too few paths left to tell two kinds apart: those learned to vary
                    // come back (`frame.rs`).
                    (
                        crate::same::overlap_without(summary, theirs, |id| f.is_frame(id)),
                        Compared::WithoutFrame,
                    )
                }
            }
            _ => (
                without(&|_| false),
                if articles {
                    Compared::Articles
                } else if seen.flags.is_some() {
                    Compared::WithoutVarying
                } else {
                    Compared::Whole
                },
            ),
        };
        // A page that brings what the host has never kept, a third of its own part, is
        // another kind; less, it joins only as alike as a far match must be (`frame.rs`).
        if let Some(f) = seen.host_frame {
            match brings(f) {
                Brings::OwnPart => return Err(Compared::BringsNewPart),
                Brings::Some if crate::varying::share(compared.0) < seen.novel_bar => {
                    return Err(Compared::BringsNewUnlike);
                }
                Brings::Some | Brings::Nothing => {}
            }
        }
        Ok(compared)
    }
}
