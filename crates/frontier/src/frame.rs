//! The frame of a scope: the paths on nearly every cluster representative, learned per host.
//!
//! Web applications put most of every page in one frame (header, navigation, sidebars,
//! footer) and tell their page kinds apart in a small main region: a login form and an
//! account form, a short list and a short table. Two such pages share the frame's paths,
//! so their Jaccard similarity is high (0.7 and more) although their own parts have little
//! in common. What the frame is, the host's own pages teach: a path on at least
//! [`FRAME_SHARE`] of the scope's representatives (one page per structure kept so far, at
//! least [`MIN_REPRESENTATIVES`] of them) is the frame.
//!
//! The confirmation leaves the frame out only where both pages are mostly frame (at most one
//! in [`OWN_PART`] of each page's paths are its own): there the frame would decide, and the
//! pages are compared on their main regions. A page with much of its own (an article, a
//! reference page whose content blocks vary) is compared on all its paths as before: left
//! out there, the frame would leave only the content that varies, and one documentation
//! template would split into many (ALGORITHM.md §3 has the measurements).
//!
//! Where only one of the two is mostly frame, its own part is what it is: a page that holds
//! less than half of it (the paths learned to vary left out, [`MIN_OWN`] of them at least)
//! is another kind, however much of the frame the two share. A wiki's list of its user
//! groups' rights and a page's history, the one mostly frame with a table of its own, the
//! other with a list of revisions that varies from page to page: compared on all their
//! paths but the varying ones, the frame made them 0.86 alike (ALGORITHM.md §3, "Session
//! 50").
//!
//! And where the page being judged is mostly frame and its candidate is not, a page that
//! brings paths no representative of the host has ([`MIN_NEW`] of them, the candidate
//! lacking them) is another kind: a wiki's diff view is its frame with a `pre.diff` where
//! the page view has its article (ALGORITHM.md §3, "Session 56"). Any other page whose own
//! part (its paths neither frame nor learned to vary) they are a third of ([`NEW_PART`]) is
//! another kind too, however alike the two are: a wiki's diff view is the page view with a
//! diff table above the article, 0.83 alike to it on all paths (ALGORITHM.md §3, "Session
//! 62"). Any other page that brings them joins only as alike as a match beyond the
//! threshold must be (`min-similarity` + `far-margin`, 0.8 by default): a web server
//! manual's module page is a manual page with a synopsis table and directive sections below
//! its text, 0.77 alike to one once the blocks that vary between manual pages are left out
//! (ALGORITHM.md §3, "Session 61").
//!
//! The paths learned to vary (`varying.rs`) are left out there too, unless fewer than
//! [`MIN_COMPARED`] paths would be left of the two own parts: a list page of a wiki whose
//! items' paths vary elsewhere on the host keeps a path or two of its own, and two pages of
//! that one template, 0 bits apart and 97% alike, came out a third alike on what was left.
//!
//! Deterministic in the order pages are judged (the crawl's, which `replay` and a resume
//! repeat); only representatives teach it, and shared backends log every one of them.

use fnv::FnvHashMap;

use crate::same::holds;

/// A path on at least this share of a scope's representatives is the frame: four of the
/// first five. At 0.9 (all five, until there are ten), one page of another layout among a
/// host's first representatives (a login page, an error page, a section with a sidebar)
/// left whole parts of the frame out of it: a held-out MediaWiki kept a page of 49–84 of
/// its 110 labelled kinds over five hash seeds, 79–89 at 0.8, with every development
/// figure the same (ALGORITHM.md §3, "Session 40").
pub(crate) const FRAME_SHARE: f64 = 0.8;

/// Fewer representatives than this teach no frame: five (a path on four of them is the frame).
/// At ten, a wiki whose first pages merged on its frame (every kind of page is mostly the
/// skin) kept too few representatives ever to learn it, and merged nearly everything after
/// (held-out MediaWiki: 5 and 8 of 110 kinds kept on two hash seeds of five; ALGORITHM.md §3,
/// "Session 37").
pub(crate) const MIN_REPRESENTATIVES: u32 = 5;

/// A page whose own (non-frame) paths are at most one in this many of its paths is mostly
/// frame: a third. (At a half, a frame learned from a documentation host's first article
/// pages made its articles mostly frame, and they split on their content: ALGORITHM.md §3,
/// "Session 32".)
pub(crate) const OWN_PART: usize = 3;

/// Two pages that are mostly frame are compared on their own parts without the paths
/// learned to vary when at least this many paths are left of both; with fewer, those paths
/// stay in (one or two paths out of a page's hundred would decide).
pub(crate) const MIN_COMPARED: usize = 8;

/// Where one page is mostly frame and the other is not, the first's own part (its paths
/// that are neither frame nor learned to vary) decides only from this many paths on: it is
/// another kind than a page that holds less than half of them. [`MIN_COMPARED`]'s figure,
/// for its reason: a path or two say nothing of a page's hundred.
pub(crate) const MIN_OWN: usize = MIN_COMPARED;

/// A page that is mostly frame and brings at least this many paths that no representative
/// of its host has (neither frame, nor learned to vary, nor prose) is another kind than a
/// page that is not mostly frame and lacks them: a wiki's diff view (the frame with a
/// `pre.diff` where the article was), a wiki's report pages (the frame with a short list)
/// against a page's history (ALGORITHM.md §3, "Session 56"). Two paths would split more;
/// five kept none of those kinds.
pub(crate) const MIN_NEW: usize = 3;

/// A page that brings [`MIN_NEW`] or more paths no representative of its host has, at least
/// one in this many of its own paths (neither frame nor learned to vary), is another kind
/// than a page that lacks them, however alike the two are on all their paths: a third. A
/// wiki's diff view is the page view with a diff table above the article: 22 new paths, 22
/// of its 41 own, and 0.83 alike to the article, the frame most of both (ALGORITHM.md §3,
/// "Session 62").
pub(crate) const NEW_PART: usize = 3;

/// A page with at least this many paths of prose ([`is_prose`]) is never mostly frame:
/// an article whose blocks fold to a few paths is compared on all its paths, not on what
/// its prose holds (ALGORITHM.md §3, "Session 38").
pub(crate) const MIN_PROSE: usize = 3;

/// Whether summary id `id` is a path below a flow of prose: its lowest bit
/// (`silhouette_dom::PathSet::summary`). Prose is a page's content, never its frame.
pub(crate) const fn is_prose(id: u32) -> bool {
    id & 1 == 1
}

/// Distinct paths counted per scope: past this many, new paths are no longer counted (a
/// path first met that late is on too few representatives to be the frame).
const MAX_COUNTED: usize = 1 << 16;

/// What a scope's representatives teach about its frame.
#[derive(Debug, Default)]
pub(crate) struct Frame {
    /// Representatives counted.
    representatives: u32,
    /// On how many representatives each path is.
    counts: FnvHashMap<u32, u32>,
}

impl Frame {
    /// Counts the summary (sorted, distinct path ids) of a new representative.
    pub(crate) fn learn(&mut self, summary: &[u32]) {
        self.representatives = self.representatives.saturating_add(1);
        for &id in summary {
            let full = self.counts.len() >= MAX_COUNTED;
            match self.counts.get_mut(&id) {
                Some(n) => *n = n.saturating_add(1),
                None if !full => {
                    self.counts.insert(id, 1);
                }
                None => {}
            }
        }
    }

    /// Whether path `id` is the frame; a path of prose ([`is_prose`]) never is.
    pub(crate) fn is_frame(&self, id: u32) -> bool {
        self.frame_on(id, self.counts.get(&id).copied())
    }

    /// [`is_frame`](Self::is_frame) of path `id`, on `count` representatives (its count,
    /// looked up once by the caller).
    fn frame_on(&self, id: u32, count: Option<u32>) -> bool {
        self.learned()
            && !is_prose(id)
            && count.is_some_and(|n| f64::from(n) >= FRAME_SHARE * f64::from(self.representatives))
    }

    /// Whether a page with `summary` is mostly frame (see the module docs); never before the
    /// frame is known.
    pub(crate) fn mostly_frame(&self, summary: &[u32]) -> bool {
        if !self.learned() || summary.is_empty() {
            return false;
        }
        // One pass: prose paths (never the frame) and every other path that is not frame.
        let (mut prose, mut own) = (0usize, 0usize);
        for &id in summary {
            if is_prose(id) {
                prose += 1;
                own += 1;
            } else if !self.is_frame(id) {
                own += 1;
            }
        }
        prose < MIN_PROSE && own.saturating_mul(OWN_PART) <= summary.len()
    }

    /// Whether the scope has counted enough representatives
    /// ([`MIN_REPRESENTATIVES`]) to tell its frame.
    pub(crate) const fn learned(&self) -> bool {
        self.representatives >= MIN_REPRESENTATIVES
    }

    /// Whether `small`, a page that is mostly frame, and `big`, one that is not, are two
    /// kinds: `small` has at least [`MIN_OWN`] paths of its own (neither frame nor named by
    /// `varies`) and `big` holds less than half of them. Both summaries sorted.
    pub(crate) fn own_part_absent(
        &self,
        small: &[u32],
        big: &[u32],
        varies: impl Fn(u32) -> bool,
    ) -> bool {
        let (mut own, mut held) = (0usize, 0usize);
        for &id in small {
            if self.is_frame(id) || varies(id) {
                continue;
            }
            own += 1;
            if holds(big, id) {
                held += 1;
            }
        }
        own >= MIN_OWN && held.saturating_mul(2) < own
    }

    /// What `page`, not yet a representative, holds that no representative of the host has
    /// (paths neither prose nor named by `varies`), which of those are no blocks of its
    /// article (`article`, `articles.rs`), and how many paths are its own (neither frame
    /// nor named by `varies`): read once per page, for each of its candidates
    /// ([`Novel::brings`]). Nothing once the scope counts no new paths ([`MAX_COUNTED`]): an
    /// uncounted path is not a new one. `page` and `article` sorted.
    pub(crate) fn novel(
        &self,
        page: &[u32],
        article: &[u32],
        varies: impl Fn(u32) -> bool,
    ) -> Novel {
        let mut novel = Novel::default();
        if !self.learned() || self.counts.len() >= MAX_COUNTED {
            return novel;
        }
        for &id in page {
            let count = self.counts.get(&id).copied();
            if self.frame_on(id, count) || varies(id) {
                continue;
            }
            novel.own += 1;
            if !is_prose(id) && count.is_none() {
                novel.unkept.push(id);
                if !holds(article, id) {
                    novel.template.push(id);
                }
            }
        }
        novel
    }
}

/// What a page holds that no representative of its host has, and the size of its own part
/// ([`Frame::novel`]).
#[derive(Debug, Default)]
pub(crate) struct Novel {
    /// Its paths no representative has, neither prose nor learned to vary, increasing.
    unkept: Vec<u32>,
    /// Those of them that are no blocks of its article (an author's blocks between the
    /// paragraphs are the text's, not another kind's), increasing.
    template: Vec<u32>,
    /// Its paths neither frame nor learned to vary.
    own: usize,
}

impl Novel {
    /// What the page brings that `other`, a representative, lacks (sorted):
    /// [`Brings::Nothing`] under [`MIN_NEW`] paths, [`Brings::OwnPart`] when those that are
    /// no blocks of its article are [`MIN_NEW`] or more and at least one in [`NEW_PART`] of
    /// the page's own part, else [`Brings::Some`].
    pub(crate) fn brings(&self, other: &[u32]) -> Brings {
        if self.unkept.len() < MIN_NEW {
            return Brings::Nothing;
        }
        let lacks = |paths: &[u32]| paths.iter().filter(|&&id| !holds(other, id)).count();
        if lacks(&self.unkept) < MIN_NEW {
            return Brings::Nothing;
        }
        let new = lacks(&self.template);
        if new >= MIN_NEW && new.saturating_mul(NEW_PART) >= self.own {
            Brings::OwnPart
        } else {
            Brings::Some
        }
    }
}

/// What a page brings that the host has never kept ([`Novel::brings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Brings {
    /// Fewer than [`MIN_NEW`] such paths.
    Nothing,
    /// [`MIN_NEW`] or more, under one in [`NEW_PART`] of the page's own part: it joins only
    /// as alike as a far match (`dedup.rs`).
    Some,
    /// [`MIN_NEW`] or more, at least one in [`NEW_PART`] of the page's own part: another
    /// kind, however alike.
    OwnPart,
}

impl Brings {
    /// Whether the page brings [`MIN_NEW`] or more such paths.
    pub(crate) fn any(self) -> bool {
        self != Self::Nothing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame learned from `representatives`; `page`'s verdict and which of `ids` are frame.
    /// Ids are written as path numbers `n`: the summary id `16n`, a path of the template (an
    /// odd id is prose: [`is_prose`]).
    fn check(representatives: &[&[u32]], page: &[u32], mostly: bool, frame: &[u32]) {
        let ids = |paths: &[u32]| paths.iter().map(|&n| n * 16).collect::<Vec<u32>>();
        let mut f = Frame::default();
        for r in representatives {
            f.learn(&ids(r));
        }
        assert_eq!(f.mostly_frame(&ids(page)), mostly, "{page:?}");
        let got: Vec<u32> = ids(page).into_iter().filter(|&id| f.is_frame(id)).collect();
        assert_eq!(got, ids(frame), "{page:?}");
    }

    #[test]
    fn frame_is_what_nearly_every_representative_has() {
        // Ten representatives share 1..=6; each has one path of its own.
        let reps: Vec<Vec<u32>> = (0..10).map(|i| vec![1, 2, 3, 4, 5, 6, 100 + i]).collect();
        let reps: Vec<&[u32]> = reps.iter().map(Vec::as_slice).collect();
        check(&reps, &[1, 2, 3, 4, 5, 6, 7, 8], true, &[1, 2, 3, 4, 5, 6]);
        // A third of its paths its own: still mostly frame; more: not (a half is more).
        check(&reps, &[1, 2, 3, 4, 8, 9], true, &[1, 2, 3, 4]);
        check(
            &reps,
            &[1, 2, 3, 4, 5, 6, 7, 8, 9],
            true,
            &[1, 2, 3, 4, 5, 6],
        );
        check(&reps, &[1, 2, 3, 4, 5, 7, 8, 9], false, &[1, 2, 3, 4, 5]);
        check(&reps, &[1, 2, 3, 7, 8, 9], false, &[1, 2, 3]);
        // A path on 8 of 10 is frame, on 7 of 10 is not.
        let mut most = reps.clone();
        let missing: &[u32] = &[1, 2, 3, 4, 5];
        most[0] = missing;
        most[1] = missing;
        check(&most, &[6], true, &[6]);
        most[2] = missing;
        check(&most, &[6], false, &[]);
    }

    /// Summary ids of template paths `paths` (path `n` is id `16n`), sorted.
    fn ids(paths: &[u32]) -> Vec<u32> {
        let mut v: Vec<u32> = paths.iter().map(|&n| n * 16).collect();
        v.sort_unstable();
        v
    }

    /// The frame 0..20 that `n` representatives teach, each with 3 paths of its own
    /// (`1000 + 10k ..`).
    fn taught(n: u32) -> Frame {
        let mut f = Frame::default();
        for k in 0..n {
            f.learn(&ids(&(0..20)
                .chain(1000 + 10 * k..1003 + 10 * k)
                .collect::<Vec<_>>()));
        }
        f
    }

    /// A frame 0..20 that ten representatives teach (each with 3 paths of its own); whether
    /// `small` (mostly frame) and `big` are two kinds, the paths in `varying` learned to vary.
    fn check_own(small: &[u32], big: &[u32], varying: &[u32], apart: bool) {
        let f = taught(10);
        let page = ids(&(0..20).chain(small.iter().copied()).collect::<Vec<_>>());
        assert!(f.mostly_frame(&page), "{small:?}");
        let other = ids(&(0..20).chain(big.iter().copied()).collect::<Vec<_>>());
        assert!(!f.mostly_frame(&other), "{big:?}");
        let varying = ids(varying);
        let varies = |id: u32| varying.contains(&id);
        assert_eq!(
            f.own_part_absent(&page, &other, varies),
            apart,
            "{small:?} {big:?}"
        );
    }

    #[test]
    fn a_page_mostly_frame_is_its_own_part() {
        let table: Vec<u32> = (500..508).collect();
        let history: Vec<u32> = (600..620).collect();
        // A table of 8 paths of its own against a page of 20 others: two kinds.
        check_own(&table, &history, &[], true);
        // The other holds half of them (4 of 8): one kind may be.
        let half: Vec<u32> = (500..504).chain(600..620).collect();
        check_own(&table, &half, &[], false);
        // 3 of 8: apart.
        let three: Vec<u32> = (500..503).chain(600..620).collect();
        check_own(&table, &three, &[], true);
        // Seven own paths are too few to say (`MIN_OWN`).
        check_own(&table[..7], &history, &[], false);
        // Paths learned to vary are no part of it: 8 own, 2 of them varying, leave 6.
        check_own(&table, &history, &[500, 501], false);
        // A page that holds all of it and more of its own (a long page of the kind).
        let longer: Vec<u32> = (500..508).chain(600..620).collect();
        check_own(&table, &longer, &[], false);
    }

    #[test]
    fn what_a_page_brings_that_the_host_never_kept() {
        use Brings::{Nothing, OwnPart, Some};
        // Ten representatives: the frame 0..20, three paths of their own each.
        let f = taught(10);
        let other = ids(&(0..20).chain(1000..1003).collect::<Vec<_>>());
        // (page's own paths, the prose among them, the paths learned to vary, verdict)
        let check = |own: &[u32], prose: &[u32], varying: &[u32], brings: Brings| {
            let mut page = ids(&(0..20).chain(own.iter().copied()).collect::<Vec<_>>());
            page.extend(prose.iter().map(|&n| n * 16 + 1));
            page.sort_unstable();
            let varying = ids(varying);
            assert_eq!(
                f.novel(&page, &[], |id| varying.contains(&id))
                    .brings(&other),
                brings,
                "{own:?} {prose:?} {varying:?}"
            );
        };
        // Three paths no representative has, all its own part (a diff view's `pre.diff`).
        check(&[500, 501, 502], &[], &[], OwnPart);
        // Two are too few; paths other representatives have are not new.
        check(&[500, 501], &[], &[], Nothing);
        check(&[500, 501, 1010, 1011], &[], &[], Nothing);
        // Nor are prose or the paths learned to vary.
        check(&[500, 501], &[502], &[], Nothing);
        check(&[500, 501, 502], &[], &[502], Nothing);
        // Nor what the other page holds.
        check(&[500, 501, 1000], &[], &[], Nothing);
        // Three new of nine own paths (prose counts as its own): a third, another kind; of
        // ten, fewer: they are some of it. Paths learned to vary are no part of it.
        let known = [1010, 1011, 1012, 1020, 1021];
        let own: Vec<u32> = [500, 501, 502].into_iter().chain(known).collect();
        check(&own, &[900], &[], OwnPart);
        check(&own, &[900, 901], &[], Some);
        check(&own, &[900, 901], &[1010], OwnPart);
        // New paths that are blocks of its article (a table an author wrote between two
        // paragraphs) are the text's: they are some of it, not another kind.
        let page = ids(&(0..20).chain(500..503).collect::<Vec<_>>());
        assert_eq!(
            f.novel(&page, &ids(&[500, 501]), |_| false).brings(&other),
            Some
        );
        let four = ids(&(0..20).chain(500..504).collect::<Vec<_>>());
        assert_eq!(
            f.novel(&four, &ids(&[500]), |_| false).brings(&other),
            OwnPart
        );
        // Before five representatives, no path is new.
        let young = taught(4);
        let page = ids(&(0..20).chain(500..503).collect::<Vec<_>>());
        assert_eq!(young.novel(&page, &[], |_| false).brings(&other), Nothing);
    }

    #[test]
    fn no_frame_before_enough_representatives() {
        let reps: Vec<&[u32]> = vec![&[1, 2, 3]; 4];
        check(&reps, &[1, 2, 3], false, &[]);
        let five: Vec<&[u32]> = vec![&[1, 2, 3]; 5];
        check(&five, &[1, 2, 3], true, &[1, 2, 3]);
        check(&five, &[], false, &[]);
        // With five, a path must be on four of them: one page of another layout among
        // them (a login page) leaves the frame whole.
        let four_of_five: Vec<&[u32]> =
            vec![&[1, 2, 3], &[1, 2, 3], &[1, 2, 3], &[1, 2, 3], &[1, 2]];
        check(&four_of_five, &[1, 2, 3], true, &[1, 2, 3]);
        let three_of_five: Vec<&[u32]> = vec![&[1, 2, 3], &[1, 2, 3], &[1, 2, 3], &[1, 2], &[1, 2]];
        check(&three_of_five, &[1, 2, 3], true, &[1, 2]);
    }

    #[test]
    fn prose_is_never_the_frame_and_a_page_with_prose_is_not_mostly_frame() {
        // Ten representatives share template paths 2, 4, 6, 8, 10, 12 and prose paths 1, 3, 5.
        let reps: Vec<Vec<u32>> = (0..10)
            .map(|i| vec![1, 2, 3, 4, 5, 6, 8, 10, 12, 200 + 2 * i])
            .collect();
        let mut f = Frame::default();
        for r in &reps {
            f.learn(r);
        }
        assert!(f.is_frame(2) && f.is_frame(12));
        assert!(
            !f.is_frame(1) && !f.is_frame(5),
            "prose on every page is still content"
        );
        // Two prose paths and a template page: mostly frame (own: 1, 3 of 8 paths).
        assert!(f.mostly_frame(&[1, 2, 3, 4, 6, 8, 10, 12]));
        // Three prose paths (`MIN_PROSE`): an article, compared on all its paths.
        assert!(!f.mostly_frame(&[1, 2, 3, 4, 5, 6, 8, 10, 12]));
        assert!(!f.mostly_frame(&[1, 3, 5, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]));
    }
}
