"""The checker stage: find the stack on each point of a canonical (warped) field image.

Colour alone cannot find checkers on real boards (black checkers on black points, white on
ivory, red on red), so this stage looks for *shape*: a checker seen from above is a disc whose
rim gives a gradient pointing across the rim, i.e. radially.  For every candidate centre along a
point's axis a ring of the expected checker radius is sampled and scored by how much of the
colour gradient on it is radial rather than tangential (straight triangle edges crossing a ring
are mostly tangential somewhere and cancel out).  A stack is then a chain of such centres that
starts at the field edge and advances by roughly one diameter (less when the player overlaps a
tall stack).  Bar checkers are found the same way along the bar's axis.

A tall overlapped stack rings all along its straight sides, so how many checkers it holds is
told by the rhythm of its rims (the edge profile along its axis repeats once per checker), not
by how many fitted rings score well; a chain that stops where the ring map proposed no
candidate for a faint crescent, its last checker short of a whole rim (another lies on it),
is carried on at that rhythm to the top it still runs to (:func:`_rhythm_top`).  A stack may
run up to the facing edge (fifteen overlapped); the checkers both facing points claim
belong to the side from which the pile lies the usual way (each checker on the one before,
from the base at the edge outward: seen from the facing edge each lies under the one
before), else to the longer stack.

An empty point's base (the wide end of its triangle against the edge) rings like a checker on
most of the ring; only toward the point's tip does the ring cross the triangle's plain inside.
A checker alone on its point has nothing lying on it, so its rim must show on that arc too.
Where the facing stack's end touches a base, that arc shows the facing checker's rim instead:
there a lone checker must have a colour other than the point's paint (read on the empty points
of the same paint).  A lone checker whose near arc hides under the frame's lip may fall short of
the usual share of rim; it is taken when its colour is its own and its far arc shows a clear
rim at the checker's radius (a die's outline beyond an empty base leaves the paint inside).
A lone checker of (or near) the point's own paint must show that far rim as a step at its
radius or as a line: glare or shading across an empty base rings on that arc too, but as a
ramp.  Such a checker's rim may be too faint for the usual share of rim at all; it is still
taken when that step is in lightness, at one distance in every direction of the arc (a circle:
blotches of paint, a shadow's soft edge or a die's straight side beyond the base are not), and
a line darker or lighter than both the face and the paint beyond, which are one colour (glare
is a ramp); or when it steps in every direction of the arc and is no ramp; or when it steps on
most of the arc and shows a clear line there that the bare points of the same paint, at the same
height, do not show (a line printed across the bases shows on all of them); so too, by a fainter
such line, a checker a little off the paint's colour whose middle is one face (a die on a base
leaves paint around it; bare bases lifted off their paint by glare show no such line).
Likewise a checker whose whole rim shows has nothing lying on it closely, and a stack's
end that shows only part of a rim, half under its neighbour, must have its neighbour's colour
(the point's paint beside a rim shows part of a ring too); a small stack's end touching the one
before with the point's paint in its middle, short of a whole rim, must show its far rim too (the
bare point beyond a checker of its paint rings on that checker's rim and the triangle's sides,
its far arc a faint ramp).  A chain of touching checkers each showing its whole rim is where its
checkers lie: no longer overlapped pile is fitted over it (overlapped checkers hide part of
each other's rims; :func:`_touching_whole`).

Seen from a seat, at a slant, the checkers stand raised and are read on the field rectified
through the plane of their tops (:func:`vision.reader.raised_view`).  A tall pile's checkers
after its base lean on the one before, their tops higher and further out than a flat one's:
the camera sees them moved from where an evenly spaced stack would be, up to half a radius at
60 degrees, and its first step looks that much longer or shorter than the others.  Given that
move (``find_checkers(lean=...)``), a pile is chained and fitted from its flat base with its
first step so changed (:func:`_chain_leaning`, :func:`_pile_centres`); where no pile passes on
rings, its leaning checkers are looked for on the ellipses their tilted top faces are seen as
(:func:`_pile_faces`).

Corners are never exact (clicked on the frame's lip, found a little inside the field): a quarter
whose checkers sit consistently beside their columns is read again where they are (a stack too
far off to be found on its axis at all is looked for beside it first), and ring directions
that fall outside the warped image count as unseen rather than as missing rims.

On the bar a checker lies on top and shows its whole rim; a dark one on a dark bar shows a
faint one, told from the bar's hinges (metal) by having the colour of a player's checkers.

The stage returns image-space facts only (centres, scores, mean colours); naming colours and
mapping them to players happens in :mod:`vision.reader` with the calibration.

>>> import numpy as np
>>> from calibration.geometry import BoardGeometry
>>> geo = BoardGeometry.default(aspect=0.9)
>>> field = np.full((geo.height, geo.width, 3), 200, np.uint8)
>>> found = find_checkers(field, geo)
>>> sum(len(s.centres) for s in found.stacks)
0
"""
from __future__ import annotations

import bisect
import functools
import math
import statistics
from dataclasses import dataclass, field as dc_field
from typing import Callable, Protocol

import cv2
import numpy as np

from calibration.colours import lit_distance, nearest_distance, weighted
from calibration.geometry import POINTS_PER_ROW, BoardGeometry, median_of
from engine.position import CHECKERS_PER_SIDE
from vision.layers import read_layered
from vision.rings import AXIS_ARC_DEG, COVERAGE_ANGLES, RING_RADII, SOFT_FIELD, RingScorer

#: Share of ring directions with a radial edge (:meth:`RingScorer.coverage`) a checker needs.
COVERAGE_THRESHOLD = 0.82
#: Least score of any checker in a stack, and the bonus per checker when choosing a stack.
MEMBER_FLOOR = 0.62
MEMBER_BONUS = 0.08
#: Coverage a checker on the bar needs: the bar's hinges and edges make ring-like shapes there,
#: and a checker on the bar lies on top, its whole rim in view.
BAR_THRESHOLD = 0.92
#: Largest step (radii) of a stack fitted as a whole (tall stacks are overlapped), and how far
#: (radii) each of its checkers may sit from the evenly spaced model.
REGULAR_MAX_STEP = 2.3
REGULAR_SLACK = 0.2
#: How far (radii) beside the line through a stack's ends each of its checkers may sit.
SIDE_SLACK = 0.4
#: One checker in the middle of a tall overlapped whole-stack model (:data:`BLURRED_LEAST`
#: checkers or more) may show less than :data:`MEMBER_FLOOR` of its rim, down to
#: :data:`BLURRED_FLOOR`: each shows only a crescent between the two lying on and under it,
#: and a hand's blur, glare or a checker pushed a little off the pile can dim one crescent
#: while both neighbours bracket it.  It still costs the model its shortfall (see
#: :data:`REGULAR_MARGIN`), and the stack's mean must still reach the threshold.
BLURRED_LEAST = 6
BLURRED_FLOOR = 0.5
#: Score above the threshold that each checker of a stack fitted as a whole must show to be
#: worth adding: the fit's slack lets a ring snap onto the stack's straight sides, so a count
#: one or more too high still scores well; an extra checker must pay for itself clearly.
REGULAR_MARGIN = 0.03
#: Glare clips a tall white stack's middle to plain white: where every sample across a ring
#: direction's rim (the radii :data:`~vision.rings.RING_RADII`) has at least
#: :data:`CLIPPED_LIGHTNESS` (8-bit Lab) nothing could show, rim or not, so a tall stack's
#: checkers are scored over the directions that could show one.  A checker with at least
#: :data:`UNSEEN_CHECKER` of its ring clipped is not seen at all; at most :data:`UNSEEN_MOST`
#: of a stack may be unseen, never its two ends.
CLIPPED_LIGHTNESS = 250
UNSEEN_CHECKER = 0.5
UNSEEN_MOST = 0.4
#: A faint tall stack fitted with unseen checkers is counted again by the rhythm of the rims
#: that show (:func:`_seen_recount`) when that count is at most this many checkers off the
#: fit's: glare hides the pile's middle, so the fit's count there is not seen.  Over flat
#: synthetic seeds 0-8999 that pass extended 13 piles with unseen checkers (each pass of a
#: read counted): on all 12 true piles the rhythm's count (span / step + 1, rounded; 0.41 at
#: most from a whole count, 5774's 10.59) was the truth, the fit off by 0 (6), 1 (3288,
#: 5774) or 2 (356, 617, 8838, 8896); the one false pile (5398, an empty point) kept its count.
SEEN_RECOUNT_MOST = 2
#: A tall chain that stops where such glare hides the rest of its pile is fitted again as a
#: whole, from its base through the glare (:func:`_tall_into_glare`): the fit must keep each
#: checker of the chain within this many radii of one of its centres (the hand's slack
#: along the axis, as :func:`_regular_stack` keeps the checkers a chain saw whole) and put a
#: checker it does not see beyond the chain's end.  Flat seeds 0-6999, solid 0-499 and
#: layered 0-99 (corners given), over the 223 chains of four or more with a clipped candidate
#: beyond their end: 47 fits ran further; the one taken (seed 5398, a white 14 read 8, now
#: right) keeps the chain within 0.13 radii and puts a checker 0.62 clipped past its end; of
#: the others none puts any clipped checker past the chain's end (0.0) and the nearest keeps
#: its chain within 0.38 radii.
KEPT_SLACK = REGULAR_SLACK + 0.05
#: A chain of at least this many checkers, each seen whole and a touching step from the next,
#: is kept by any model of its stack (:func:`_touching_whole`), not only a touching one.
TOUCHING_WHOLE_LEAST = 4
#: ... and the checker it puts past the chain's end must lie at least this share of its ring in
#: clipped glare (:func:`_clipped_shares`): unseen (:data:`UNSEEN_CHECKER`), or the pile's top
#: half in the glare, whose rim shows over the ring directions that could show one (such a far
#: end is proposed so: ``glared_tops`` of :func:`_faint_tall_stack`).  Seed 8430's white 14 on
#: ivory paint (each checker 0.72-0.84 of its rim, read 4: its chain stopped at the one ring
#: that reached the threshold) has its top 0.34 clipped, showing 0.61 but its near arc, of
#: which 0.48 is clipped.  Over flat 0-8999, solid 0-499, layered 0-99, real and real-aug
#: (corners given), of the other fits that run further than their chain two put a checker
#: past its chain's end 0.3 clipped or more: 5398's (0.62, taken before) and 58's (0.66, which
#: moves its chain 0.29 radii: refused by KEPT_SLACK); the nearest under, 3823's 11 (0.28, a
#: white 13 the glare walk reads right) and 6443's 10 (0.22, a white 11), count short; all
#: others 0.0.
GLARE_PAST_LEAST = 0.3
#: Far ends (with their bases) a faint tall stack is fitted to, furthest first.
FAR_ENDS_TRIED = 3
#: How far (a share of the ring) a faint tall stack whose every checker shows a rim may fall
#: short of the threshold in its mean and at its top (:func:`_nearly_whole_pile`): one of the
#: ring's :data:`~vision.rings.COVERAGE_ANGLES` directions, the least a score can change by.
PILE_SHORT = 1.0 / COVERAGE_ANGLES
#: A blurred tall pile may show every crescent dimmer still: its fit is taken, when no other
#: passes, if every checker shows a rim (:data:`MEMBER_FLOOR`), its mean and its top fall
#: short of the threshold by no more than :data:`RHYTHM_PILE_SHORT`, two ring directions,
#: its checkers are clearly of one paint (:data:`HIDDEN_END_JUMP`) and the rhythm of its rims
#: confirms its count (:func:`_rhythm_confirms`; see :func:`_rhythmic_pile`).  With no floor
#: on the mean and top at all, the fallback fires on four frames of flat synthetic 0-5999,
#: solid 0-499 and layered 0-99 (corners given): right on 2861, 4667 and 5196 (red 14, 12, 14
#: read empty: tops 0.78-1.0, means 0.761-0.776), wrong on solid 328 (a blue 6 on an empty
#: point: top 0.75, one direction short of 2861's, mean 0.77) and on 4667's first (steep) read
#: (an 11, mean 0.731; its final read takes the 12).
RHYTHM_PILE_SHORT = 2 * PILE_SHORT
#: Rim share a checker alone on its point must show on the arc facing the board's centre
#: (within :data:`AXIS_ARC_DEG` of the point's axis) when its middle has the point's own
#: colour (closer than :data:`SAME_PAINT`, lightness-weighted Lab, to the point one diameter
#: further toward its tip).  An empty point's base rings like a checker all round but there,
#: where the triangle narrows away inside the ring, and its "disc" is the point's paint.  A
#: lone checker has no neighbour hiding that arc; one of the point's colour shows a faint rim,
#: so most of the arc (7 of its 9 directions), not all of it, is asked for.
LONE_FAR_ARC = 0.7
SAME_PAINT = 8.0
#: A checker alone on its point may show less than :data:`COVERAGE_THRESHOLD` of its rim (its
#: near arc under the frame's lip or against a dark frame, a flank against a neighbour of its
#: colour).  It is still taken with at least :data:`LONE_MOST_RIM` (three quarters) all round
#: when its middle differs from the point's paint and the arc an empty base lacks, the one
#: toward the point's tip, shows a clear rim: a radial colour change of at least
#: :data:`LONE_RIM_CLEAR` (Lab units per pixel, median over that arc's directions) between 0.8
#: and 1.2 radii.  Plain paint changes by about 1 there (synthetic and real), most checkers'
#: rims by 10 to 80; a checker of its point's very colour may change it by as little as paint
#: does, and is not taken this way.
LONE_MOST_RIM = 0.75
LONE_RIM_CLEAR = 8.0
#: A checker alone on its point whose middle has the point's paint (closer than
#: :data:`SAME_PAINT` to the paint on the empty points of the same paint, at its distance from
#: the edge) must show its rim on the far arc as a step (or, see :func:`_paint_lone`, as a
#: line): the largest colour change between 0.8 and 1.2 radii must stand at least
#: :data:`LONE_RIM_STEP` (Lab units per pixel, median over that arc's directions) above the
#: change just inside or just outside that band (:func:`_far_step`).  Glare or shading drawn
#: across an empty base changes the paint evenly along the axis, which the ring sees as a
#: radial edge on that arc; a rim changes it at the checker's radius.  Measured on synthetic
#: hard seeds 0-1399 (corners given), lone checkers of their point's paint: read right, 2.9 or
#: more (their rims faint); the glare-lit bases read as lone checkers, 0.5 to 1.7.
LONE_RIM_STEP = 2.0
#: ... and that step must be no ramp.  A rim changes the lightness within the band between 0.8
#: and 1.2 radii, level on either side, so the band reaches (a line: passes) both the levels
#: just inside and just outside it (:func:`_far_rim_line` at least 0).  Glare (light added
#: smoothly) or a shade across bare paint is a ramp that runs on past the band: the band falls
#: short of both levels, by about the ramp's slope times 0.2 radii (from the band's ends to
#: where the levels are taken).  A reading whose band falls short of both by at least
#: :data:`LONE_RAMP_SHORT` times its step (its steepest change, per pixel) over a radius is a
#: ramp.  Synthetic hard seeds 0-3999 and the real photos under every transform (corners
#: given), lone readings of their point's paint clear of the facing stack: the checkers 0.03
#: at most (1034); the glare-lit bases with a step of 2 or more, 0.27 and 0.30 (seeds 3934,
#: 3089; the others, 0.17 to 1.0 or with a step under 2).
LONE_RAMP_SHORT = 0.1
#: ... and it must step in colour (:func:`_far_step` of Lab, above the change beside the band
#: as the lightness step is) by at least :data:`LONE_COLOUR_STEP` of its lightness step.  A rim
#: changes the colour where it changes the lightness, at the checker's radius; glare across a
#: coloured paint washes the colour out along the whole ray, so the colour's change beside the
#: band swallows its step there while the lightness still steps.  Synthetic hard seeds 0-5999,
#: solid -n 500 and the real photos under every transform (corners given), lone readings of
#: their point's paint clear of the facing stack stepping 2 or more in lightness: the checkers
#: 0.76 or more (1826); held seed 5723's glare-lit cream base (blurred), read as a white
#: checker, 0.43 (the bare bases so far: 0.81 and more, all refused by other tests).
LONE_COLOUR_STEP = 0.6
#: A lone reading clear of the facing stack whose middle has a colour of its own (at least
#: :data:`OFF_PAINT` from its point's paint, and not that paint lit by glare) is a checker whose
#: face meets the paint at its rim: its far arc steps in colour (:func:`_far_step` of Lab).  One
#: that steps less than :data:`OWN_COLOUR_STEP` there is a bare base that glare or shade took
#: off its paint (see :func:`_paint_lone`).  Flat 0-7999 (corners given), the readings of a
#: colour of its own: the 27341 of lone checkers step 2.07 or more (4153 top[7], black on
#: blue-white; 3367 bottom[2] 2.20); the bare bases 0.57 (6198 top[3]: a green-cork red point
#: washed pale by glare, read as a red checker), 1.46 (2417 bottom[1], emptied by another test
#: already), 2.05 (4212 top[8], read as a blue checker: not told by this) and more.  Only
#: readings not of a colour seen on a stack of two or more are looked at (those are players'
#: colours, and looking no further keeps the read cheap; 6198's pale red is 28 from the
#: nearest): solid seed 119 top[6], a lone checker seen at a slant whose far arc shows its side,
#: steps -0.71 but has its player's stacked colour (0.2 from it).  A lone checker seen so whose
#: colour no stack shows would be lost.
OWN_COLOUR_STEP = 1.0
#: A lone checker of its point's paint short of the threshold or of :data:`LONE_FAR_ARC` (a
#: faint rim) is taken when its far arc steps in lightness by at least :data:`LONE_RIM_STEP`
#: in each direction and in their average, which keeps at least :data:`LONE_CIRCLE_SHARE` of
#: the step (:func:`_paint_rim_lone`): a rim lies at one distance in every direction, so
#: averaging keeps most of it (synthetic hard seeds 0-1399: 0.70 to 0.88 of it for the lone
#: checkers so found); a die's straight side beyond a base, crossing part of the arc, or a
#: paint's blotches keep a third or less.
LONE_CIRCLE_SHARE = 0.5
#: Such a checker has its point's paint inside its rim and beyond it: its rim is a line, darker
#: or lighter than both (:func:`_far_rim_line`, 8-bit Lab lightness), where glare or a
#: shadow's edge across a base goes from one level to another.  Synthetic hard seeds 0-1399,
#: lone checkers of their point's paint: 2.8 to 16; glare and shadows across bases: below 0; a
#: dark paint's blotches: under 2.
LONE_RIM_LINE = 2.0
#: Such a checker may also be taken when its far arc steps in lightness by at least
#: :data:`LONE_RIM_STEP` in every one of its directions (:func:`_far_steps`), not only in
#: most: a rim runs along the whole arc, where a die's side beyond a base, a paint's blotches
#: or a highlight's edge cross only part of it.  Its averaged colour need not keep the step
#: then (a centre read a little off the checker's spreads the rim over the average) nor show
#: the rim as a clear line, but its lightness must not stay between the levels inside and
#: outside the rim as a ramp's does (:func:`_far_rim_line` at least :data:`RIM_NOT_RAMP`): a
#: shadow's soft edge across a base steps in every direction too.  So taken, a reading may
#: also have a colour near the point's paint but not of it (below :data:`OFF_PAINT`), where
#: glare or shade lifts a base's colour.  Synthetic hard seeds 0-3999 and the real photos under
#: every transform (corners given), points read empty whose candidate near the edge, clear of
#: the facing stack, shows :data:`LONE_MOST_RIM` all round, a colour below :data:`OFF_PAINT`
#: from the paint and a far step of :data:`LONE_RIM_STEP`: the 53 bare bases step at most 1.91
#: in their weakest direction (a shadow's soft edge, line -6.9; those with a line of 0 or
#: more, at most 0.47: a die beyond the base); the lone checkers so found 2.09 to 2.93, with
#: lines of 1.57 to 12.4 (bare bases stepping 1.5 or more in every direction: -4.4 or less).
RIM_NOT_RAMP = 0.0
#: A lone checker of its point's paint whose far arc steps on most of its directions but not
#: on all, and whose averaged profile keeps no step (:func:`_far_circle_step` short: a face
#: shaded darker toward a soft groove at its rim, a centre read a little off, one direction
#: running onto the triangle's side) is still taken when that arc shows a clear line, at least
#: :data:`LONE_OWN_LINE` beyond both its levels (:func:`_far_rim_line`), which the bare points
#: of the same paint in its row, sampled the same way at the same height, do not show: its
#: lightness less theirs goes as far beyond them, or its line less theirs is as clear
#: (:func:`_line_siblings_lack`: a checker's shadow beyond it turns the first into a step).
#: Such a checker must step in colour where it steps in lightness (:func:`_steps_in_colour`),
#: as :func:`_paint_lone` asks of every lone reading of its point's paint.  A line printed
#: across the bases, the frame's shadow or the paint's shading along the points shows on every
#: base alike and cancels out; a die lying on the base does not (a die's outline crossing the
#: arc is a line too), and is left to :func:`_dice_on_paint`.  Synthetic hard seeds 0-5999 and
#: the real photos under every transform (corners given), the readings that get this far
#: (point's paint, median far step of :data:`LONE_RIM_STEP` or more, not every direction, no
#: averaged step, a line of 5 or more): the four lone checkers (5302 bottom[4] and 5705
#: bottom[2], red on red; 4531 bottom[4] red on red; 5200 top[0] black on black) 6.5 to 9.6;
#: the bare bases, all one base with a small die lying on it (real fm-gold-b top[9] defocused,
#: blurred by motion, far and soft) 3.1 to 4.1.  Solid seeds 0-499 and layered 0-99: none.
#: Flat 0-7999 (corners given), every candidate with 0.65 of a rim or more near the edge of a
#: point read empty, of its point's paint: none of the 43485 on bare bases shows a line of 5;
#: those that get this far (27) show the smaller of the line and the line beyond their
#: siblings' at 2.19 at most (2894 top[1]); the tournament set's red checkers on red points
#: whose shadow beyond them hid the line from the first comparison, now taken, 7.62 (6348
#: bottom[10]) to 13.55 (7335 bottom[4]; 7026 bottom[2], 7.98, steps in colour 1.96, 0.92 of
#: its lightness step).
#: A checker near its point's paint but not of it (:func:`_paint_gap` from :data:`SAME_PAINT` up
#: to :data:`OFF_PAINT`: a red a little off the point's red) is asked the same line, as is one
#: fainter still (:data:`OWN_LINE_FAINT`): its groove is the line, its face's colour no cue
#: where glare or shade may lift a bare base's as far.  Its middle must also be one face, evenly
#: off the paint: no blob of it off the paint by :data:`OFF_PAINT` as large as a die's face
#: (:data:`DIE_LEAST` radii square, see :func:`_one_face_near_paint`), where a dark die lying on
#: a base, too flat and smooth for :func:`_die_on_paint`, leaves paint around a dark blob whose
#: outline is a line too (real wtc2022-a with its corners found, top[6]: a blob of 59 pixels,
#: 1.8 times a die's face; line 7.7, beyond its siblings' 7.3).  Flat 0-8999 and solid 0-499
#: (corners given), every candidate near the edge of a point read empty with
#: :data:`OWN_LINE_RIM` of a rim or more and a colour so near the paint, in the reading kept:
#: the smaller of the line and the line beyond the siblings' on the 1626 bare bases is 2.96 at
#: most (66 bottom[8]); the lone checkers it now takes 6.39 (7084 bottom[4]), 8.54 (8104
#: bottom[4]), 8.56 (solid 310 bottom[7]), 8.58 (2656 bottom[10]) and 9.42 (8620 bottom[2]),
#: their largest blob off the paint 10 pixels (0.3 of a die's face).  On the board-plane reads of
#: frames finally read from a slant, two bare bases show such lines (7224 bottom[3] beneath a
#: tall pile's end, 11.3; 5108 bottom[11], 5.95), their middles not one face (blobs 69 and 67
#: pixels: the pile's end, a noisy frame's blotch).
LONE_OWN_LINE = 5.0
#: Such a line, its bare siblings lacking it, is the one cue asked of a lone checker of its
#: point's paint whose rim is fainter still: short of :data:`LONE_MOST_RIM` all round (down to
#: :data:`OWN_LINE_RIM`) or stepping on less than most of its far arc (median
#: :func:`_far_steps` under :data:`LONE_RIM_STEP`), when the line and the line beyond its
#: siblings' both reach :data:`OWN_LINE_FAINT`.  The tournament set's red checkers on red
#: points show their groove so (synthetic 2620 bottom[10], 3161 bottom[4], 6348 bottom[2]:
#: 0.69 to 0.75 of a rim all round, median steps 1.8 to 2.4, the smaller of the two lines 8.1
#: to 9.8).  Synthetic 0-6999 (corners given), every candidate near the edge of a point read
#: empty, with 0.55 of a rim or more and a colour below :data:`OFF_PAINT` from its paint: of
#: the 87546 on bare bases, those of their point's paint show the smaller of the two lines at
#: 4.65 at most (2624 bottom[6], walnut; 5945 top[1], 4.60).  A line but no step must still
#: show in the colour as :func:`_paint_lone` asks of every lone reading of its point's paint.
#: Compared as :func:`_line_siblings_lack` does (the larger of the two ways), flat 0-7999: the
#: bare bases so tested show the smaller of the two lines at 4.66 at most (2624 bottom[6]), and
#: 1838 bottom[10] (red on red, tournament: 6.96, its profile less its siblings' only 0.43) is
#: taken.
#: (Most bare bases ring 0.6 or more: from 0.65 a third fewer of them are sampled, the
#: checkers so taken showing 0.69 or more.)
OWN_LINE_RIM = 0.65
OWN_LINE_FAINT = 6.5
#: A checker near its point's paint but not of it (:func:`_paint_gap` from :data:`SAME_PAINT` to
#: :data:`OFF_PAINT`) and of one face (:func:`_one_face_near_paint`) is taken on a line, and the
#: line beyond its bare siblings', of :data:`NEAR_PAINT_LINE` (in place of :data:`LONE_OWN_LINE`
#: or, its rim fainter still, :data:`OWN_LINE_FAINT`): the bare bases a glare or a shade lifts
#: off their paint so far show no groove, where the bare bases of the paint's very colour show
#: its texture and shading (up to 4.65).  Flat 0-9999 and solid 0-499 (corners given), every
#: candidate near the edge of a point read empty with :data:`OWN_LINE_RIM` of a rim or more and
#: a colour so near the paint: the smaller of the two lines on the 1888 bare bases is 2.96 at
#: most (66 bottom[8]; 9000-9999: 1.79) but for two on slanted reads whose middle is not one
#: face (7224 bottom[3], 5108 bottom[11], see :data:`LONE_OWN_LINE`); the lone checkers it now
#: takes, red on red points, 4.25 (9295 bottom[4], its rim short of most all round), 4.44
#: (3068 bottom[4]), 4.49 (9523 bottom[8]), 4.92 (7451 bottom[10]) and 5.66 (1841 bottom[7]).
#: Halfway between 2.96 and 4.25.
NEAR_PAINT_LINE = 3.6
#: :func:`_line_siblings_lack` compares a candidate's far line with its bare siblings' lines
#: only where its face just inside the rim has their lightness there, within this many 8-bit
#: Lab units: it stands for a checker of the paint.  The lone checkers of their point's paint
#: it takes on flat 0-7999 (corners given): -9.7 (6348 bottom[10]) to 5.1 (7026 bottom[2]; 1838
#: bottom[10] -2.4, 7335 bottom[4] 1.0; 5739 bottom[11], a black checker lighter than fm-tan's
#: black paint by 16, is left to be read empty as before); the real photos under every
#: transform, the small die on fm-gold-b's navy top[9] (defocused, blurred by motion, far and
#: soft) 24 to 28 lighter, and start-red-black's top[9] at 500 px, with noise or from a seat (a
#: candidate two radii out, dark where its siblings are light) 56 to 60 darker.
FACE_AS_SIBLINGS = 12.0
#: A small stack's last checker that touches the one before (a step of :data:`OVERLAP_BELOW`
#: radii or more) with the point's own paint in its middle (:func:`_paint_gap` below
#: :data:`SAME_PAINT`) may be that paint itself: beyond a lone checker of its point's paint the
#: bare point rings on the checker's rim behind it and on the triangle's narrowing sides.  It
#: must show its rim on its far arc as a lone checker of its point's paint must: where that arc
#: steps faintly (median :func:`_far_steps` in lightness at least :data:`LONE_RIM_STEP`, below
#: :data:`PAINT_END_FAINT`) and as a ramp (see :data:`LONE_RAMP_SHORT`: the paint giving way to
#: the field beyond the narrowing triangle, glare along the point), the stack ends before it
#: (:func:`_without_paint_ends`).  Synthetic hard seeds 0-5999 and the real photos under every
#: transform (corners given), such ends as finally read: the two that were the paint (5922
#: bottom[8], 5963 top[2], black on black, each read 2 for 1) step 2.4 as ramps falling 0.54
#: and 0.57 of their step over a radius short of the levels; of the 1098 true checkers, those
#: that are ramps step 4.3 or more, those stepping between 2 and 4 fall short by 0.08 at most
#: (no ramp).
PAINT_END_FAINT = 2 * LONE_RIM_STEP
#: A lone checker whose centre lies within this many radii of the field's edge has its near
#: arc on the edge, where the frame's lip may hide it (or a frame of its colour meet it): it
#: may instead show the threshold's share of its rim without that arc.
LONE_EDGE_REACH = 1.2
#: A small stack (:data:`PAINT_END_MOST` checkers or fewer) may end with a checker whose rim is
#: faint: one of its point's own paint, or one lying on paint of its colour.  The candidate one
#: stack step beyond its last checker (:data:`PAINT_END_STEPS` radii, a touching neighbour to
#: a full diameter and its slack), of that checker's colour (closer than :data:`SAME_PAINT`),
#: is taken as the stack's next checker when its far arc, the one toward the point's tip, shows
#: a rim in lightness (:func:`_paint_stack_ends`): a step in each direction
#: (:func:`_far_step`) and at one distance about the middle of the arc
#: (:func:`_far_axis_circle_step`), both at least :data:`LONE_RIM_STEP`.  A checker a stack
#: step beyond a stack's end lies where the triangle has narrowed: its sides cross the ring
#: just outside the band of the arc's outer directions, so only the directions near the axis,
#: whose rays stay on the paint, are averaged.
PAINT_END_MOST = 4
PAINT_END_STEPS = (1.4, 2.45)
#: Such a faint end on paint of its colour whose far arc shows no line (blur smears a dark
#: checker's rim into the dark paint beyond it) is still taken when that arc steps clearly:
#: :func:`_far_step` and :func:`_far_axis_circle_step` both at least this (8-bit Lab
#: lightness).  Flat synthetic seeds 0-8999 (corners given), candidates of a small stack's
#: colour one step beyond it with 0.75-0.81 of their rims and their far arcs: the three that
#: are no checkers (the bare point beyond a black checker on black or dark paint: 1669, 5963,
#: 1011) step 3.0 at most on the lower of the two; the two checkers read short without a line
#: (8005 top[5], bottom[4], black on a blurred black board) 6.0 and 7.8.
PAINT_END_CLEAR_STEP = 4.5
#: Such an end stepping clearly may show less of its rim than :data:`LONE_MOST_RIM`, down to
#: this share (23 of the 32 ring directions).  Flat synthetic seeds 0-8999 (corners given),
#: candidates so placed with 0.72 of their rims: the 16 that are no checkers step 3.2 at most
#: (7147 bottom[5], beyond a white pair on walnut), the checkers 4.5 (5739 bottom[5], read
#: empty), 6.9 (6528), 11.2 (8005 top[8], read 2 for 3) and 27.4 (184).
PAINT_END_CLEAR_RIM = 0.7
#: A small stack (:data:`PAINT_END_MOST` checkers or fewer) of white checkers in glare clipped
#: to plain white (:data:`CLIPPED_LIGHTNESS`) shows its next checker's rim only where it meets
#: something darker (the point's paint, the board's print): the ring directions where every
#: sample across the rim is clipped could show nothing, rim or not.  The candidate one stack
#: step beyond its last checker (:data:`PAINT_END_STEPS`), clipped white in its middle too and
#: clearly of its colour (:data:`HIDDEN_END_JUMP`), is taken when, over the directions that
#: could show a rim, it shows the threshold's share of one all round and
#: :data:`LONE_FAR_ARC` of one on its far arc (an empty stretch of paint beyond a stack's end
#: rings on its near arc, the last checker's rim, and on the triangle's sides, but not there),
#: and at least :data:`CLIPPED_SEEN_LEAST` of its ring could show one (see
#: :func:`_clipped_stack_ends`).  Synthetic hard seeds 0-2999 (corners given), the clipped
#: candidates one touching step beyond such stacks' ends: the true next checkers taken show
#: 0.90 to 1.0 of the seen ring and 0.71 to 1.0 of the seen far arc; the one nothing else
#: shows 0.92 all round but 0.50 on the far arc, the rest under 0.78 all round.
CLIPPED_SEEN_LEAST = 0.4
#: A small stack of light checkers (lightness at least :data:`LIGHT_END`, 8-bit Lab, at its
#: last checker's middle and the next one's: white, ivory) on light paint or a light field
#: shows its next checker's rim faintly, the more so where glare lifts both toward white
#: without clipping them: even over the directions that could show one, its share may fall
#: short of the threshold all round and of :data:`LONE_FAR_ARC` on its far arc.  That
#: candidate (one stack step beyond, clearly of the stack's colour, see
#: :func:`_clipped_stack_ends`) is still taken when it shows at least
#: :data:`FAINT_END_ROUND` of a rim all round and :data:`FAINT_END_FAR` on its far arc, and
#: its far arc a clear step in lightness at one distance about the point's axis
#: (:func:`_far_axis_circle_step` at least :data:`FAINT_END_STEP`): a light face ending
#: against what lies beyond it.  Synthetic hard seeds 0-3999 and the real photos under every
#: transform (corners given), such candidates beyond light stacks of one to four: the true
#: next checkers show 0.69 or more all round, 0.56 or more on the far arc and steps of 3.8 or
#: more (7.0 or more on synthetic frames); of the others, those with a far step of 2 show at
#: most 0.31 all round and those with both shares at most 0.44 on the far arc, and those
#: with both shares a step of at most 1.94.  (Dark stacks are not taken so: beyond a dark
#: stack a dark triangle narrowing into a light field steps as clearly.)
LIGHT_END = 150.0
FAINT_END_ROUND = 0.6
FAINT_END_FAR = 0.5
FAINT_END_STEP = 3.0
#: Players overlap the checkers of a tall stack to fit it on its point; a stack of at most
#: :data:`FLAT_MOST` checkers fits lying flat, each touching the one before (steps of about two
#: radii, less where hands push them together or the view foreshortens them).  A step shorter
#: than :data:`TIGHT_STEP` in such a stack, where the checker on top would hide the other's rim
#: across the whole arc toward it, is no checker of it: a ring between the stack's last checker
#: and what lies beyond (a facing pile's end, its point's paint) sees both their rims, and
#: shows less than a whole one itself (a checker pushed onto the one before shows its whole
#: rim).  The stack ends before that step (see :func:`_without_tight_steps`).  Synthetic hard
#: seeds 0-2999 (corners given): the stacks of 2 to 5 read right have steps of 1.41 radii or
#: more; the two read one too many, 1.03 and 1.24 (the checker beyond, 0.66 all round).
#: (Stacks built in layers, when asked for, lie a tight step from the layer under them:
#: :mod:`vision.layers` reads them.)
FLAT_MOST = 5
#: A checker of the facing point's stack whose centre lies within this many radii beyond a
#: lone checker's (along the axis) puts its own rim on the lone one's far arc.
FACING_TOUCH = 2.6
#: A small die (or another small object) lying on an empty point's base changes the colour of
#: the base's middle, so the base's ring passes for a lone checker of a colour of its own.
#: Within :data:`DIE_ON_PAINT_REACH` radii of a lone checker's centre, a checker shows one
#: face: all of it the point's paint, or all of it a colour of its own (shading and a logo
#: aside).  A base with a die shows paint (within :data:`OFF_PAINT` of it, weighted Lab, per
#: pixel) over at least :data:`DIE_PAINT_SHARE` of that disc, the rest mostly one blob the
#: size of a die's face, at least :data:`DIE_LEAST` radii square and spanning at most
#: :data:`DIE_SPAN` radii (a checker's own colour spans the whole disc, 1.6 radii), with a
#: die's sharp detail inside (pips on a face, its edges): a median absolute Laplacian of
#: lightness (8-bit Lab, 3x3) of at least :data:`DIE_SHARP`.  A highlight, a shadow or a
#: printed ring on a checker of its point's paint is smoother (patches that large on lone
#: checkers' faces, real photos: 2 to 11; synthetic hard seeds 0-399: 3 to 19, and 16.5 on
#: seed 1053's printed rings; the dice on real bases: 60 and 97); a speck of noise or glare
#: may be as sharp, but is smaller.  Measured on two real dice only: a die whose face is
#: large and flat (a bigger die, a sharper camera) is not told, and the reading is kept as
#: it was; so is one a blurred photo softens.
DIE_ON_PAINT_REACH = 0.8
OFF_PAINT = 2 * SAME_PAINT
DIE_PAINT_SHARE = 0.4
DIE_LEAST = 0.5
DIE_SPAN = 1.3
DIE_SHARP = 35.0
#: ... but a checker of (near) its point's paint whose face has printed rings or grooves (a
#: white one on a white point, its grey ring and bluish shade off the paint) looks like that
#: too.  Its rim runs along the whole far arc, at its radius, as a line between a face and
#: paint of one colour (see :data:`LONE_RIM_LINE`): a reading whose far arc steps in lightness
#: by at least :data:`LONE_RIM_STEP` in every direction (:func:`_far_steps`, the least of
#: them) and shows a line of at least :data:`LONE_RIM_LINE` (:func:`_far_rim_line`) is a
#: checker, not a die on a base (the die leaves the paint beyond it, or crosses part of the
#: arc with a straight side that steps from one level to another).  Synthetic hard seeds
#: 0-4999 and the real photos under every transform, corners given and found automatically:
#: of the readings :func:`_die_on_paint` calls dice, the bare bases (fm-wood bottom[4],
#: fm-gold-b top[9]) that step in every direction show lines of at most 0.01 (steps up to
#: 3.2), those with a line of 2 or more step at most 0.47 in their weakest direction; the one
#: checker (seed 4771, a white checker with a grey ring on a white point) steps 10.6 with a
#: line of 24.6.
DIE_NOT_RIM = (LONE_RIM_STEP, LONE_RIM_LINE)
# The squares of calibration.colours.weighted's per-channel weights, as a cv2.transform matrix.
_SQUARED_WEIGHTS = np.square(weighted(np.ones((1, 3), np.float32)))
#: A stack of at least :data:`RECOUNT_LEAST` checkers is counted again from the rhythm of its
#: rims when that rhythm is clear (autocorrelation at least :data:`PERIOD_CLEAR`) and its
#: span is within :data:`PERIOD_WHOLE` of a whole number of steps.
RECOUNT_LEAST = 4
PERIOD_CLEAR = 0.6
PERIOD_WHOLE = 0.35
#: The checker on top of an overlapped pile lies on one of its own paint: where the two meet,
#: its near arc, its rim is a line between two faces of one colour, which blur or glare clipped
#: to white wipes out.  Such a top shows its rim clearly all round but there (``no_near``), and
#: as a lone checker short of the threshold must, most of it all round (:data:`LONE_MOST_RIM`)
#: and its far arc (:data:`LONE_FAR_ARC`), and has the paint of the checker under it
#: (:data:`HIDDEN_END_JUMP`): it may end a pile of at least :data:`PILE_TOP_LEAST` checkers (a
#: checker overlapping a lone one or a pair is read as before: that is where a faint ring beyond
#: a short stack lies).  Synthetic hard seeds 0-3999 (corners given): such tops end three tall
#: piles (a white 13 under glare and a blurred red 13 now read right, a blurred red 15 read 11
#: now 10); taken for any stack, they also made a pair of a lone checker or of an empty point's
#: base on four frames.
PILE_TOP_LEAST = RECOUNT_LEAST
#: On a defocused field (softness under vision.rings.SOFT_FIELD) such a top may end a pile of
#: :data:`SOFT_PILE_TOP_LEAST` when every checker under it shows its rim clearly but for its
#: far arc (``no_far`` at the threshold or more; see :func:`_chain`): defocus wipes out the
#: line between two faces of one paint on short piles too.  The real photo start-red-black
#: defocused by 1% of the field's width, top[4] (red 3: its top 0.78 all round, 0.91 but its
#: near arc; the two under it 0.94 and 0.91 but their far arcs) is read right.  Over every soft
#: field of the development sets (flat seeds 0-5999 under SOFT_FIELD, solid 0-499, the real
#: photos under every transform) it changes one chain besides, flat seed 2523's white 3 (the
#: two under its top 0.91 or more; read right by a later stage already); without the clear rims
#: asked under the top it also took solid seed 462's ring over a lone white checker (the one
#: "under" it 0.70 but its far arc) for a pile of 3.  A pair stays as it was (piles of 2 took
#: an empty point's base for one on flat seed 2894).
SOFT_PILE_TOP_LEAST = 3
#: A rhythm that is not clear (a blurred or dim pile: autocorrelation under
#: :data:`PERIOD_CLEAR`) still counts a stack again when the stack's span lies within
#: :data:`PERIOD_TIGHT` of a whole number of its steps and every checker of the recounted
#: stack shows at least :data:`MEMBER_FLOOR` of its rim where it is put (:func:`_recount`).  On
#: synthetic hard seeds 0-2999 (corners given), over the 5583 chains of four or more with a
#: rhythm, no chain read right had a rhythm that disagreed with it and came within 0.25 of a
#: whole number of steps; the span lies within 0.15 of one for 90% of them.  Over flat 0-5999
#: and solid 0-499 (corners given), of the faint rhythms that disagree with a chain: those
#: that count the pile right lie 0.105 steps off and more (0.105-0.126 mended at 0.15: a white
#: 12 under glare read 11 on 5806, a black 3 read 4 on 5200, a red 13 read 11 on solid 371);
#: the nearest that disagrees with a chain of the right count lies 0.215 off (4499, a white
#: 15).  Heaps built in layers ring off their rhythm (their chains are read_layered's starting
#: point): on layered seeds 0-99 such rhythms lie 0.04-0.16 off; all read as at 0.1 but seed
#: 18's bottom[7], a 6 read 7 at 0.1 and 5 at 0.15.
PERIOD_TIGHT = 0.15
#: A tall pile's fit (:data:`EDGE_BASE_LEAST` checkers or more) whose first checker lies
#: :data:`EDGE_BASE_OFF` radii from the edge or more, with a clear base of its paint nearer
#: the edge, is carried down to that base (:func:`_with_edge_base`).  Solid seeds 0-499
#: (corners given): the nine piles it mends (3, 135 twice, 161, 340, 342, 484, 491 now exact,
#: 487's white 11 read 7 now 8) began 1.66-1.99 radii out, their bases at 0.66-1.17 radii
#: showing 0.87-0.96 of their rims but the far arc, the weakest checker placed 0.65-0.78 (it
#: also carries down five piles that were read right without it: 64, 175, 215, 219, 243,
#: the nearest the edge 1.51 radii out); of the piles read right with such a base nearer the
#: edge that it leaves, the furthest out began at 1.35 radii (187), and two that began further
#: out (255 at 1.9, 450 at 1.77) are kept by the rims of the checkers it would place (0.57 and
#: 0.43, under MEMBER_FLOOR).  Flat seeds 0-6999: it mends 3672's
#: black 15 (read 14; began 1.71 radii out) and 6971's white 8 (read 7; 1.99), and changes
#: nothing else.
EDGE_BASE_LEAST = BLURRED_LEAST
EDGE_BASE_OFF = 1.5
#: A tall chain (:data:`RHYTHM_TOP_LEAST` or more) agreeing with a clear rhythm of its rims,
#: its last checker short of a whole rim, is carried on to a top further out that the rhythm
#: still runs to (:func:`_rhythm_top`): the rhythm from the base to that top keeps its step
#: within :data:`RHYTHM_TOP_STEP` of the chain's, and every checker placed shows
#: :data:`MEMBER_FLOOR` of its rim (one in the middle :data:`BLURRED_FLOOR`).  Solid seeds 0-499
#: (corners given): it mends 112's white 8 (read 7), 383's black 14 (read 12) and 429's black 12
#: on dark red paint (read 8); their chains' last checkers showed 0.75-0.84 of their rims, the
#: rhythm from base to top 0.69-0.73 clear and within 0.003 of the chain's step, the weakest
#: checker placed 0.57 (the one dimmed), the next 0.70.  Flat seeds 0-7999: it carries only
#: 6443's white 11 under glare from 9 to 10.  Without the whole-rim test it also carried four
#: white piles read right past their tops (flat 2361, 3162, 3877, 4985: their last checkers
#: showed 1.0 all round).  Of the tops weighed on solid that would read a pile wrong though
#: the checkers placed pass (20, 141, 153, 179, 218, 275, 370, 403), each ends a chain whose
#: last checker shows 0.93-1.0, and each fails one more test besides (a top short of the
#: threshold, off the rhythm's whole steps, or a fainter rhythm); the nearest step to the
#: chain's among them came 0.024 off (153).
RHYTHM_TOP_LEAST = BLURRED_LEAST
RHYTHM_TOP_STEP = 0.02
#: A referee must not take a pile the reader could not count for an empty point or a short
#: stack.  The ring map proposes a candidate near each checker of a pile however faint its
#: rims (each shows its rim but for the far arc the next one hides): a walk of at least
#: :data:`DOUBT_RUN_LEAST` such candidates from a clear base at the edge, a checker's spacing
#: apart and of one paint (:func:`_ring_run`), is a pile; when it holds at least
#: :data:`DOUBT_SHORT` checkers more than were read there, and no more than a pile holds
#: (fifteen), the point is doubtful (:attr:`Stack.doubtful`).  Synthetic hard seeds 0-3999
#: (corners given): of the 95,950 points read right none is doubtful; the nearest (walks over
#: the readings of e314eea) are walks of 5 beside stacks of 2 or empty points (4 points) and
#: walks 2 longer than stacks of 12 or 13 (6 points).  Of the 15 tall stacks read wrong three
#: are (blurred piles read empty or 5 short); real photos and their transforms: none of the
#: points read right.
DOUBT_RUN_LEAST = BLURRED_LEAST
DOUBT_SHORT = 3
#: A faint pile taken only as nearly whole (:func:`_nearly_whole_pile`, short of the threshold)
#: is doubtful too when the rhythm of its rims (:func:`_stack_period`) does not confirm its
#: count: its span lies further than :data:`PERIOD_WHOLE` from one rhythm step per checker but
#: one (:func:`_rhythm_agrees`).  Synthetic hard seeds 0-3999 (corners given, at e314eea): the
#: four such piles read right lie 0.10-0.13 steps from their count; the two read short (blue 13
#: as 10, red 15 as 11: fits at touching steps through a blurred pile) 3.2 and 3.4.
NEARLY_RHYTHM = PERIOD_WHOLE
#: How much (in radii) one step of a stack may differ from the next.
STEP_SLACK = 0.45
#: The step (radii) of the tall pile whose lean a chain's base is moved by, seen at a slant
#: (see :meth:`_Candidates.base_lean`): players overlap piles of six to fifteen by about 1.4
#: to 1.9 radii, and the lean's move changes by about a tenth of a radius over those steps.
LEAN_STEP = 1.6
#: A base whose pile's checkers lean less than this (radii) along the axis is searched only as
#: it is (:func:`_chain_leaning`): the steps' slack takes that much (solid seeds 0-1499, the
#: readings are the same frame for frame with and without the copies of such bases).
LEAN_LEAST = 0.15
#: Largest colour difference (lightness-weighted Lab) between neighbours in one stack.
COLOUR_JUMP = 40.0
#: Centres closer than this (in radii) overlap: each hides part of the other's rim.
OVERLAP_BELOW = 1.85
#: Largest colour difference (lightness-weighted Lab) between a stack's last checker, when it
#: lies under the one before and shows only part of its rim, and that one: half of
#: :data:`COLOUR_JUMP` (one checker's colour varies with glare, but a checker half hidden under
#: one of its own colour shows the same paint).
HIDDEN_END_JUMP = COLOUR_JUMP / 2
#: Glare lights a glossy checker of a small stack (a lamp's spot, a window's reflection): a
#: black one turns grey, a gold one pale, further from the one before than one stack's
#: checkers may differ (:data:`COLOUR_JUMP`), so the chain stops before it.  Such a checker is
#: still its stack's paint with white light added (:func:`calibration.colours.lit_distance`
#: closer than this to the stack's median colour) and shows its whole rim
#: (:func:`_lit_stack_ends`).  It must stay short of :data:`LIGHT_END` in lightness: lit
#: toward white it could be the other player's checker, and the colours stage could not tell
#: it either (the real fm-gold-b under the lower right glare spot: bottom[8]'s gold checkers
#: lit to 214 and 241, so taken, left too few bare places beside bottom[7] to see the glare
#: there, and bottom[7] was read white).  Flat synthetic seeds 0-7999 (corners given): the
#: lit checkers taken (black stacks 1796 top[2], 6530 top[8], 7352 top[9]; lightness 132-140)
#: lie 0.9-1.8 from their stack's paint lit and show 0.94-1.0 of their rims (the first of
#: each; fm-gold-b's, 4.4 and 0.97).
#: Over seeds 5000-7999, of the 150 other candidates one stack step beyond a small stack's
#: end as far from it in colour (rim 0.7 or more), those within 20 of its paint lit show at
#: most 0.81 of their rims and those showing 0.92 or more lie 25 or more from it (7082), but
#: for two facing stacks' ends (5581, 7886: kept out by :data:`FACING_TOUCH`).
LIT_END_JUMP = HIDDEN_END_JUMP
#: Centres closer than this (radii) overlap so far that the checker lying on top hides the
#: other's rim across the whole arc toward it (its own rim runs well inside the ring there):
#: the checker underneath cannot show a whole rim (:data:`WHOLE_RIM`, the level a checker on
#: the bar, lying on top, shows).  Two checkers that both do (touching ones) have no third
#: between them.
TIGHT_STEP = 1.3
WHOLE_RIM = BAR_THRESHOLD
#: Spacing between successive checker centres in a stack, in radii: touching checkers are 2
#: radii apart; players overlap tall stacks down to about 1.1 radii.
MIN_STEP, MAX_STEP = 1.0, 2.75
#: Lateral offsets (shares of the point width) tried around a point's axis: hands put checkers
#: a little off the axis.
LATERAL_OFFSETS = (-0.16, -0.08, 0.0, 0.08, 0.16)
#: A candidate whose rim share falls short of the threshold by less than this is read again at
#: the x of a clear checker next to it on its point (see :func:`_in_line_with_neighbours`).
REFINE_BELOW = 0.12
#: How far (point widths) a checker's centre is looked for either side of its column when
#: measuring how the columns really lie, and the least shift of a column worth a second look
#: (smaller shifts are within the lateral offsets already tried).
SHIFT_SEARCH, SHIFT_LEAST = 0.5, 0.2
#: How close (radii) to the opposite edge a stack's last centre may lie: a checker touching
#: that edge has its centre one radius from it.
FAR_REACH = 0.6
#: Where the first checker's centre may be, in radii from the field edge.
FIRST_MIN, FIRST_MAX = 0.4, 2.0
#: With a margin around the field, a first centre may lie this far (radii) beyond the given edge
#: (corners clicked or found a little inside the field).
FIRST_MIN_MARGIN = -0.35


#: A die lying on a point, alone or at a stack's end, can ring like a checker: its square
#: outline and its shadow give radial edges on much of the ring.  A die is a square smaller
#: than a checker, so inside :data:`DIE_INSIDE` radii of the centre (short of where a
#: touching neighbour's rim could reach) a die shows its outline's straight sides in two
#: perpendicular orientation families, where a checker's face is plain (little edge there),
#: or printed or grained (round or one-family edges).  Taken for a die (see
#: :func:`_die_like`): a mean edge strength there of at least :data:`DIE_EDGES` (of the
#: scorer's relative strength, at most 1 per pixel) and a fourfold orientation coherence
#: exceeding the twofold by at least :data:`DIE_SQUARE` (1 for a square's sides, about 0 for a
#: circle, round pips or one family of parallel lines: a stack's straight side, a point's
#: edge, the frame).  Both limits lie between the two populations, not at one case: at the
#: centres of the 1654 dice the renderer drew on hard seeds 0-1399 (corners given) the
#: strength's 2nd percentile is 0.39 and the difference's median 0.52 (80% of them at 0.36 or
#: more); over the 10693 far-end checkers read right there, the strength's 99th percentile is
#: 0.34 and the difference's 0.24; over the real photos' 1188 under every transform (printed
#: and wood-grain checkers reach a strength of 0.70) the difference's 99th percentile is
#: 0.21.  One checker (synthetic) is within a tenth of both limits, none passes; 86% of the
#: dice do.
#: (Dice photographed smaller than that, a third of a checker across, are not told apart.)
DIE_INSIDE = 0.75
DIE_EDGES = 0.38
DIE_SQUARE = 0.3
#: Side (pixels) of the box the gradient vectors are averaged over first: a die's straight
#: sides keep their strength over it, the edges of its pips (a pixel or two across) turn
#: within it and fade.
DIE_SMOOTH = 3


class Leaning(Protocol):
    """How a camera at a slant sees a tall overlapped pile whose checkers after its base lean
    on the one before (see :class:`vision.reader.PileLean`), on the field it is read on."""

    def shift(self, x: float, y: float, step: float, outward: float) -> tuple[float, float]:
        """Where the checkers after a base seen at (x, y), ``step`` pixels apart, the pile
        growing toward ``outward`` y (+1 or -1), are seen moved from their even places (dx,
        dy pixels)."""

    def face(self, x: np.ndarray, y: np.ndarray, step: float, outward: float) -> np.ndarray:
        """The 2x2 maps (n x 2 x 2) taking a circle of a checker's radius to the ellipses the
        top faces of such leaning checkers seen at (``x``, ``y``) are seen as (see
        :meth:`RingScorer.coverage`)."""


@dataclass
class Stack:
    """Checkers found on one point (or the bar): centres in canonical pixels and evidence."""

    row: str  # "top", "bottom" or "bar"
    column: int  # 0..11 left to right; 0 for the bar
    centres: list[tuple[float, float]] = dc_field(default_factory=list)
    scores: list[float] = dc_field(default_factory=list)
    colours: list[np.ndarray] = dc_field(default_factory=list)  # Lab means, one per checker
    #: Best score of a rejected further checker (how close the stack came to one more).
    next_score: float = 0.0
    #: The point holds a pile this reading could not count (see :data:`DOUBT_RUN_LEAST`): do
    #: not take its count, or its emptiness, on trust.
    doubtful: bool = False

    @property
    def count(self) -> int:
        return len(self.centres)


@dataclass
class CheckerFindings:
    stacks: list[Stack]  # 12 top, 12 bottom, then the bar
    radius: float
    threshold: float
    #: The field's ring evidence and geometry, for looks asked for after the search
    #: (:meth:`light_beside`); None when made by hand.
    scorer: RingScorer | None = dc_field(default=None, repr=False)
    geometry: BoardGeometry | None = dc_field(default=None, repr=False)

    def row(self, name: str) -> list[Stack]:
        return [s for s in self.stacks if s.row == name]

    def light_beside(self, index: int) -> float | None:
        """How much lighter (8-bit Lab lightness) the bare points beside point stack
        ``stacks[index]`` are than their paint elsewhere (:func:`_light_beside`): glare lights
        it, a shade darkens it; None where nothing beside it can be compared."""
        if self.scorer is None or self.geometry is None:
            return None
        return _light_beside(self.scorer, self.geometry, self.stacks, index)


def _peaks(profile: np.ndarray, spread: int) -> np.ndarray:
    """Indices of local maxima of a 1-D profile within +-spread samples."""
    dilated = cv2.dilate(profile.reshape(1, -1).astype(np.float32),
                         np.ones((1, 2 * spread + 1), np.uint8)).ravel()
    return np.nonzero((profile >= dilated) & (profile > 0))[0]


def _even(step: float, neighbour_step: float, radius: float) -> bool:
    """Players space a stack evenly: neighbouring steps differ by little."""
    return abs(step - neighbour_step) <= max(STEP_SLACK * radius, 0.3 * neighbour_step)


def _one_step_on(ys: list[float], stack: list[int], radius: float, limit: float) -> list[int]:
    """The candidates (at ``ys`` from the point's edge) one stack step on from the last checker
    of ``stack``: :data:`PAINT_END_STEPS` radii further and not past ``limit``, and where the
    stack has a step of its own, evenly spaced after it (:func:`_even`).

    >>> _one_step_on([10.0, 30.0, 52.0, 60.0, 80.0], [0, 1], 10.0, 100.0)
    [2]
    >>> _one_step_on([10.0, 30.0, 52.0, 60.0, 80.0], [1], 10.0, 55.0)
    [2]
    """
    lo, hi = PAINT_END_STEPS
    end = ys[stack[-1]]
    before = end - ys[stack[-2]] if len(stack) >= 2 else None
    return [k for k, y in enumerate(ys) if lo * radius <= y - end <= hi * radius and y <= limit
            and (before is None or _even(y - end, before, radius))]


def _colour_close(colours: np.ndarray, limit: float = COLOUR_JUMP) -> np.ndarray:
    """Which pairs of candidates (Lab colours, n x 3) may belong to one stack: closer than
    ``limit``, by default :data:`COLOUR_JUMP` (lightness-weighted).

    >>> _colour_close(np.float32([[200, 128, 128], [190, 130, 128], [40, 128, 128]])).tolist()
    [[True, True, False], [True, True, False], [False, False, True]]
    """
    return _colour_distances(colours) < limit


def _colour_distances(colours: np.ndarray) -> np.ndarray:
    """Lightness-weighted distances between every pair of candidates' Lab colours (n x 3):
    what :func:`_colour_close` compares with its limit (made once, compared with several).

    >>> _colour_distances(np.float32([[200, 128, 128], [200, 128, 128]])).tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """
    w = weighted(colours)
    return np.sqrt(((w[:, None, :] - w[None, :, :]) ** 2).sum(axis=2))


def _chain_leaning(ys: np.ndarray, full: np.ndarray, no_far: np.ndarray, no_near: np.ndarray,
                   radius: float, threshold: float, limit: float, colours: np.ndarray | None,
                   first_min: float, far_arc: np.ndarray | None,
                   close: np.ndarray | list[list[bool]] | Callable[[], list[list[bool]]] | None,
                   contact_free: np.ndarray | None,
                   distances: np.ndarray | Callable[[], np.ndarray] | None,
                   base_lean: np.ndarray, pile_least: int = PILE_TOP_LEAST
                   ) -> tuple[list[int], float]:
    """:func:`_chain` seen at a slant, where a tall pile's checkers after its base lean on the
    one before and are seen ``base_lean`` further along the axis (per candidate, for a base
    there; see :attr:`_Candidates.lean`) than evenly spaced from it.

    Each candidate that may be a base (near the edge, with a lean of at least
    :data:`LEAN_LEAST`) is searched twice: as it is, and as a copy moved by its lean that may
    only start a pile, only an overlapped one of more than :data:`FLAT_MOST` (a stack that
    fits lying flat does), whose steps are then even.  The copies come first (a copy has no
    predecessor: the search's order holds).
    """
    lo, hi = first_min * radius, FIRST_MAX * radius
    # (A base is a clear checker of its own, as _chain_search asks, and a pile has more
    # candidates that could be its checkers than lie flat: most points have neither.)
    best_any = np.maximum(full, np.maximum(no_far, no_near))
    movable = np.flatnonzero((ys >= lo) & (ys <= hi) & (np.abs(base_lean) >= LEAN_LEAST * radius)
                             & (best_any >= threshold))
    if not movable.size or np.count_nonzero(best_any >= MEMBER_FLOOR) <= FLAT_MOST:
        return _chain(ys, full, no_far, no_near, radius, threshold, limit, colours, first_min,
                      far_arc, close, contact_free, distances, pile_least=pile_least)
    copies = movable.size
    order = np.concatenate([movable, np.arange(ys.size)])
    moved = ys[order]
    moved[:copies] += base_lean[movable].astype(ys.dtype)
    pair = np.ix_(order, order)

    def reordered(pairs):   # close or distances, made (when asked for) and put in that order
        return None if pairs is None else lambda: np.asarray(
            pairs() if callable(pairs) else pairs)[pair]

    chain, rival = _chain(moved, full[order], no_far[order], no_near[order], radius, threshold,
                          limit, None if colours is None else colours[order], first_min,
                          None if far_arc is None else far_arc[order], reordered(close),
                          None if contact_free is None else contact_free[order],
                          reordered(distances), leaning_bases=copies, pile_least=pile_least)
    if chain and chain[0] < copies and (len(chain) <= FLAT_MOST or float(
            np.diff(moved[chain]).max()) >= OVERLAP_BELOW * radius):
        return _chain(ys, full, no_far, no_near, radius, threshold, limit, colours, first_min,
                      far_arc, close, contact_free, distances, pile_least=pile_least)
    return [int(order[i]) for i in chain], rival


def _chain(ys: np.ndarray, full: np.ndarray, no_far: np.ndarray, no_near: np.ndarray,
           radius: float, threshold: float, limit: float, colours: np.ndarray | None = None,
           first_min: float = FIRST_MIN, far_arc: np.ndarray | None = None,
           close: np.ndarray | list[list[bool]] | Callable[[], list[list[bool]]] | None = None,
           contact_free: np.ndarray | None = None,
           distances: np.ndarray | Callable[[], np.ndarray] | None = None,
           base_lean: np.ndarray | None = None, leaning_bases: int = 0,
           pile_least: int = PILE_TOP_LEAST) -> tuple[list[int], float]:
    """The best consistent stack from the edge over candidate centres (distances ``ys`` from
    the edge, ascending).

    Every checker must show its rim except where a neighbour lying on it hides it: when each
    checker lies on the one before (toward the centre on top, the usual way) a checker followed
    closely by another shows all but its far arc (``no_far``); the other way round all but its
    near arc (``no_near``).  A checker that only touches the next one, or the one before,
    shows all but the arcs where their rims meet (``contact_free``, see
    :meth:`RingScorer.contact_free`; default ``full``), and a rim of its own on its sides
    (:func:`_rim_aside`).  The first checker sits near the edge and each next one a plausible
    step further.  Each member needs at least :data:`MEMBER_FLOOR`, the stack as a whole
    ``threshold`` on average (a tall stack on a point of its own colour has some faint rims);
    among such stacks the one with the largest total margin wins, with a small bonus per checker
    so that a weak but real member is kept.  A stack of one checker must also show its rim on
    the arc facing the board's centre (``far_arc``, see :data:`LONE_FAR_ARC`).  A stack's last
    checker that touches the one before, clearly of its paint, may show its rim all round but
    where their rims meet (blur merges them) instead of whole (see :func:`_chain_search`).  One stack has
    one colour: neighbours must be alike (``colours``, or ``close`` given as
    :func:`_colour_close` of them; ``distances``, :func:`_colour_distances` of ``colours``
    when already made; either may be given as a function that makes it, called only when a
    stack is possible at all).  ``base_lean``: seen at a slant, how far along the axis a tall
    pile's checkers after its base are seen moved, per candidate that may be a base (see
    :func:`_chain_leaning`); ``leaning_bases``: the first so many candidates are such bases'
    moved copies (see :func:`_chain_search`).  Returns the chosen indices and the best score of
    a candidate that could have extended the stack.
    """
    if base_lean is not None:
        return _chain_leaning(ys, full, no_far, no_near, radius, threshold, limit, colours,
                              first_min, far_arc, close, contact_free, distances, base_lean,
                              pile_least)
    # Plain Python over lists throughout (a point has some ten candidates: numpy's per-call
    # overhead would be most of the time).  The arrays are float32 and numpy compares them
    # with a Python number after rounding it to float32: so do the thresholds here (_f32),
    # and the steps between centres are float32 differences, as numpy made them.
    ys_all, full_all = ys.tolist(), full.tolist()
    far_all, near_all = no_far.tolist(), no_near.tolist()
    best_any = [max(a, b, c) for a, b, c in zip(full_all, far_all, near_all)]
    # Candidates too weak to be any checker cannot be part of a stack: leave them out of the
    # search (it is quadratic), but let them count as rivals for the confidence.
    floor = _f32(MEMBER_FLOOR)
    usable = [i for i, v in enumerate(best_any) if v >= floor]
    # Every stack stands on a base near the edge that is a clear checker of its own (see
    # _chain_search): most empty points have none, and need no search (nor its inputs).
    top = _f32(limit)
    first_lo, first_hi = _f32(first_min * radius), _f32(FIRST_MAX * radius)
    first = [i for i in usable if first_lo <= ys_all[i] <= first_hi and ys_all[i] <= top]
    base_level = _f32(threshold)
    if not any(best_any[i] >= base_level for i in first):
        # What the search would find: no stack, and the best rival where a base could be.
        if len(usable) < len(ys_all):
            low, high = float(np.float32(first_min * radius)), float(np.float32(FIRST_MAX * radius))
            rivals = [f for y, f in zip(ys_all, full_all) if low <= y <= high and y <= top]
        else:
            rivals = [full_all[i] for i in first]
        return [], max(rivals) if rivals else 0.0
    if callable(close):
        close = close()
    if callable(distances):
        distances = distances()
    if close is None and colours is not None and len(colours):
        close = _colour_close(colours)
    close_all = close.tolist() if isinstance(close, np.ndarray) else close
    # A checker only touching its neighbours is credited with its rim off the contact arcs
    # when that rim is whole there (a clear checker), else with its rim all round.
    alike_all = None
    if contact_free is None:
        touching_all, aside_all = full_all, [True] * len(full_all)
    else:
        touching_all = np.where(contact_free >= threshold, contact_free, full).tolist()
        aside = _rim_aside(contact_free, full, threshold)
        aside_all = aside.tolist()
        if colours is not None and not aside.all():
            if distances is None:
                distances = _colour_distances(colours)
            alike_all = (distances < HIDDEN_END_JUMP).tolist()
    # A stack's last checker touching the one before, short of a whole rim but clear all round
    # but for its near arc, with most of its rim and its far arc (see _chain_search): which
    # candidates are clearly of its paint, for those few.
    touched_ends = None
    if colours is not None and far_arc is not None:
        ends = np.nonzero((full < threshold) & (no_near >= threshold) & (full >= LONE_MOST_RIM)
                          & (far_arc >= LONE_FAR_ARC))[0]
        if ends.size:
            if distances is None:
                distances = _colour_distances(colours)
            touched_ends = {k: (distances[k] < HIDDEN_END_JUMP).tolist() for k in ends.tolist()}
    far_arc_all = None if far_arc is None else far_arc.tolist()
    chain, rival = _chain_search(
        ys, usable, ys_all, full_all, far_all, near_all, best_any, radius, threshold, limit,
        first_min, far_arc_all, close_all, touching_all, aside_all, alike_all, touched_ends,
        leaning_bases=leaning_bases)
    if touched_ends and _may_top_pile(chain, usable, ys_all, far_all, touched_ends, radius,
                                      first_min, pile_least):
        # A tall pile's top lies on a checker of its paint (see PILE_TOP_LEAST): the pile
        # may run on to such an end, overlapped, where it stopped short of a whole rim.
        pile, pile_rival = _chain_search(
            ys, usable, ys_all, full_all, far_all, near_all, best_any, radius, threshold,
            limit, first_min, far_arc_all, close_all, touching_all, aside_all, alike_all,
            touched_ends, pile_tops=True, leaning_bases=leaning_bases)
        # (A pile shorter than PILE_TOP_LEAST, on a defocused field, must lie on clear
        # checkers: each under its top shows its rim clearly but for its far arc.)
        if (len(pile) >= pile_least and len(pile) > len(chain) and pile[:len(chain)] == chain
                and (len(pile) >= PILE_TOP_LEAST
                     or min(far_all[i] for i in pile[:-1]) >= _f32(threshold))):
            chain, rival = pile, pile_rival
    if len(usable) < len(ys_all):
        end = ys[chain[-1]] if chain else np.float32(0.0)
        lo, hi = (MIN_STEP, MAX_STEP) if chain else (first_min, FIRST_MAX)
        low, high = float(end + np.float32(lo * radius)), float(end + np.float32(hi * radius))
        top = _f32(limit)
        rivals = [f for y, f in zip(ys_all, full_all) if low <= y <= high and y <= top]
        rival = max(rivals) if rivals else 0.0
    return chain, rival


def _may_top_pile(chain: list[int], usable: list[int], ys_all: list[float],
                  far_all: list[float], touched_ends: dict[int, list[bool]], radius: float,
                  first_min: float, least: int = PILE_TOP_LEAST) -> bool:
    """Whether one of ``touched_ends`` (candidates that may end a stack short of a whole rim,
    see :func:`_chain_search`) lies beyond ``chain`` where it could top a pile of
    :data:`PILE_TOP_LEAST`: far enough out for that many, with that many candidates before it,
    one of them under it (overlapped, of its paint, showing its rim but for the far arc; the
    chain's end or beyond it)."""
    end = ys_all[chain[-1]] if chain else -1.0
    lowest = (first_min + (least - 1) * MIN_STEP) * radius
    overlap, floor = OVERLAP_BELOW * radius, _f32(MEMBER_FLOOR)
    for k, alike in touched_ends.items():
        y_k = ys_all[k]
        if y_k <= end or y_k < lowest:
            continue
        before = [i for i in usable if ys_all[i] < y_k]
        # (The pile runs on from the chain's end: the one under the top is that or beyond.)
        if len(before) >= least - 1 and any(
                alike[i] and far_all[i] >= floor and y_k - ys_all[i] < overlap
                and ys_all[i] >= end for i in before):
            return True
    return False


@functools.lru_cache(maxsize=256)
def _f32(value: float) -> float:
    """A Python number rounded to float32, as numpy rounds one it compares with a float32 array.

    >>> _f32(0.1) == float(np.float32(0.1)), _f32(0.1) == 0.1
    (True, False)
    """
    return float(np.float32(value))


def _rim_aside(contact: np.ndarray | float, full: np.ndarray | float, threshold: float
               ) -> np.ndarray | bool:
    """Whether a candidate within a stack shows a rim of its own, from its share of ring
    directions showing a radial edge all round (``full``) and without the arcs along the
    point's axis (``contact``, see :meth:`RingScorer.contact_free`), per candidate (arrays) or
    for one.

    A ring clear all round (``threshold``) is a checker's.  A fainter one must be faint where
    touching neighbours blur a checker's rim, along the axis: its sides, which no neighbour
    touches, ring at least as well as the whole ring does.  A faint ring made mostly on the
    axis arcs is made by the rims of things before and after it: the bare board between a
    stack's last checker and a print of the checkers' colour beyond it, which would otherwise
    continue the stack past its end.  Asked of checkers touching a neighbour, and of one
    between two neighbours or at a stack's far end lying under the one before; an overlapped
    neighbour may hide part of the sides too, so between two overlapped ones a clear rim off
    the arc hidden will do instead (see :func:`_chain_search`).

    >>> _rim_aside(0.95, 0.81, 0.82)  # faint where its neighbours touch it, clear aside
    True
    >>> _rim_aside(0.8, 0.88, 0.82)  # a clear ring, a little fainter aside
    True
    >>> _rim_aside(0.73, 0.78, 0.82)  # a faint ring, made where the neighbours' rims are
    False
    """
    return (full >= threshold) | (contact >= full)


def _chain_search(ys: np.ndarray, usable: list[int], ys_all: list[float], full_all: list[float],
                  far_all: list[float], near_all: list[float], best_any: list[float],
                  radius: float, threshold: float, limit: float, first_min: float,
                  far_arc_all: list[float] | None, close_all: list[list[bool]] | None,
                  touching_all: list[float], aside_all: list[bool],
                  alike_all: list[list[bool]] | None = None,
                  touched_ends: dict[int, list[bool]] | None = None, pile_tops: bool = False,
                  leaning_bases: int = 0) -> tuple[list[int], float]:
    """The search of :func:`_chain` over the ``usable`` candidates (indices into the lists of
    all of them); returns the stack (those indices) and the best rival among the usable.
    ``touching_all``: what each is credited with when it only touches its neighbours;
    ``aside_all``: whether it shows a rim of its own (:func:`_rim_aside`); ``alike_all``:
    which pairs are clearly of one paint (:data:`HIDDEN_END_JUMP`), as touching checkers of
    one stack are and the bare board between a stack and a print beyond it is not: such a
    pair needs no rims of their own aside (glare or shading may dim a checker's sides);
    ``touched_ends``: candidates that may end a stack touching the one before short of a whole
    rim, each with which candidates are clearly of its paint (see below); ``pile_tops``: such
    an end may also lie on the one before, overlapped, as a tall pile's top does (see
    :data:`PILE_TOP_LEAST`; the caller keeps only a stack that tall); ``leaning_bases``: the
    first so many of all the candidates may only be a pile's base, followed by an overlapped
    step (see :func:`_chain_leaning`)."""
    n = len(usable)
    if n == 0:
        return [], 0.0
    ys_l = [ys_all[i] for i in usable]
    full_l = [full_all[i] for i in usable]
    far_l = [far_all[i] for i in usable]
    near_l = [near_all[i] for i in usable]
    # Two checkers touching must each show a rim of its own (see _rim_aside).
    contact_l = [touching_all[i] for i in usable]
    aside_l = [aside_all[i] for i in usable]
    alike_l = ([[alike_all[i][k] for k in usable] for i in usable] if alike_all is not None
               else None)
    # Nothing beyond the limit belongs to this point, not even a base (a tall stack from the
    # facing edge may end where this point's base would be).
    top = _f32(limit)
    first_lo, first_hi = _f32(first_min * radius), _f32(FIRST_MAX * radius)
    first_l = [first_lo <= y <= first_hi and y <= top for y in ys_l]
    leaning = None
    if leaning_bases:
        # (A leaning base's copy is a base wherever its lean moved it: see _chain_leaning.)
        leaning = [i < leaning_bases for i in usable]
        first_l = [lean or first for lean, first in zip(leaning, first_l)]
    step_all = (ys[None, :] - ys[:, None]).tolist()
    step_lo, step_hi = _f32(MIN_STEP * radius), _f32(MAX_STEP * radius)
    overlap_below = _f32(OVERLAP_BELOW * radius)
    indices = range(n)
    follows_l = []
    overlap_l = []
    for i in usable:
        steps_i, close_i = step_all[i], close_all[i] if close_all is not None else None
        row = [step_lo <= steps_i[k] <= step_hi and ys_all[k] <= top
               and (close_i is None or close_i[k]) for k in usable]
        if leaning_bases:
            row = [f and k >= leaning_bases and (i >= leaning_bases or steps_i[k] < overlap_below)
                   for f, k in zip(row, usable)]
        follows_l.append(row)
        overlap_l.append([f and steps_i[k] < overlap_below for f, k in zip(row, usable)])
    successors = [[k for k in indices if row[k]] for row in follows_l]
    predecessors = [[i for i in indices if follows_l[i][j]] for j in indices]
    slack = STEP_SLACK * radius
    whole, tight = _f32(WHOLE_RIM), _f32(TIGHT_STEP * radius)
    clear_level = _f32(threshold)
    none = -1e9
    # Later on top: backwards, best chain starting at j (value, next, length, sum of scores).
    best_a = [none] * n
    next_a = [-1] * n
    count_a = [0] * n
    sum_a = [0.0] * n
    # The checker lying on top of the others shows its whole rim: the last one when each lies
    # on the one before, the first one the other way round.  A last one that touches the one
    # before, clearly of its paint, shows it but where their rims meet and may blur into one:
    # clearly all round but its near arc (near_l), and, as a lone checker short of the
    # threshold must, most of it all round (LONE_MOST_RIM) and its far arc (LONE_FAR_ARC):
    # ``touched_ends``.  That is its credit as a stack's end reached from the one before, when
    # the two touch (their centres two radii apart, within a hand's slack): with bare board
    # between them the near arc shows a rim of its own.
    end_alike = ([None] * n if not touched_ends else
                 [touched_ends.get(i) for i in usable])
    touch_reach = _f32((2 + REGULAR_SLACK) * radius)
    for j in range(n - 1, -1, -1):
        score = full_l[j]
        if score >= threshold:
            best_a[j], count_a[j], sum_a[j] = score - threshold + MEMBER_BONUS, 1, score
        y_j, overlap_j = ys_l[j], overlap_l[j]
        for k in successors[j]:
            if overlap_j[k] and score >= whole and ys_l[k] - y_j < tight:
                continue  # j's whole rim shows: k does not lie on it
            need = far_l[j] if overlap_j[k] else contact_l[j]
            after = next_a[k]
            rest, rest_count, rest_sum = best_a[k], count_a[k], sum_a[k]
            if (rest <= none and end_alike[k] is not None and (pile_tops or not overlap_j[k])
                    and ys_l[k] - y_j <= touch_reach and end_alike[k][usable[j]]):
                rest, rest_count, rest_sum = near_l[k] - threshold + MEMBER_BONUS, 1, near_l[k]
            if after >= 0:  # evenly spaced (see _even)
                step_a, step_b = ys_l[k] - y_j, ys_l[after] - ys_l[k]
                if abs(step_a - step_b) > max(slack, 0.3 * step_b):
                    continue
            # Touching j, k shows a rim of its own (_rim_aside).
            if not (overlap_j[k] or aside_l[j] and aside_l[k]
                    or alike_l is not None and alike_l[j][k]):
                continue
            if after >= 0 and not aside_l[k] and not (
                    alike_l is not None and alike_l[j][k] and alike_l[k][after]):
                # Between j and the one after it: that, or a clear rim off the arc hidden by
                # the one after lying on it, which lies on the next or ends the stack (a
                # checker lying flat, touching the next, lies on no other).
                beyond = next_a[after]
                if not (overlap_l[k][after] and far_l[k] >= clear_level
                        and (beyond < 0 or overlap_l[after][beyond])):
                    continue
            if need < MEMBER_FLOOR:
                continue
            if rest > none:
                value = need - threshold + MEMBER_BONUS + rest
                if value > best_a[j]:
                    best_a[j] = value
                    next_a[j], count_a[j], sum_a[j] = k, rest_count + 1, rest_sum + need
    # Earlier on top: forwards, best chain from the edge ending at j.
    best_b = [none] * n
    prev_b = [-1] * n
    count_b = [0] * n
    sum_b = [0.0] * n
    for j in range(n):
        score = full_l[j]
        if first_l[j] and score >= threshold and not (leaning and leaning[j]):
            best_b[j], count_b[j], sum_b[j] = score - threshold + MEMBER_BONUS, 1, score
        y_j = ys_l[j]
        for i in predecessors[j]:
            if overlap_l[i][j] and score >= whole and y_j - ys_l[i] < tight:
                continue  # j's whole rim shows: i does not lie on it
            need = near_l[j] if overlap_l[i][j] else contact_l[j]
            before = prev_b[i]
            if before >= 0:
                step_a, step_b = y_j - ys_l[i], ys_l[i] - ys_l[before]
                if abs(step_a - step_b) > max(slack, 0.3 * step_b):
                    continue
            # Touching j, i shows a rim of its own (_rim_aside).
            if not (overlap_l[i][j] or aside_l[i] and aside_l[j]
                    or alike_l is not None and alike_l[i][j]):
                continue
            if before >= 0 and not aside_l[i] and not (
                    alike_l is not None and alike_l[before][i] and alike_l[i][j]):
                # Between the one before it and j: that, or a clear rim off the arc hidden by
                # the one before lying on it, which lies on the one before it or is the base.
                prior = prev_b[before]
                if not (overlap_l[before][i] and near_l[i] >= clear_level
                        and (prior < 0 or overlap_l[prior][before])):
                    continue
            if need < MEMBER_FLOOR:
                continue
            if best_b[i] > none:
                value = best_b[i] + (need - threshold + MEMBER_BONUS)
                if value > best_b[j]:
                    best_b[j] = value
                    prev_b[j], count_b[j], sum_b[j] = i, count_b[i] + 1, sum_b[i] + need
    chain: list[int] = []
    value = none
    # The stack's base, at the edge, must be a clear checker of its own.
    base_level = _f32(threshold)
    for j in range(n):
        if not (first_l[j] and best_any[usable[j]] >= base_level):
            continue
        if best_a[j] > value and sum_a[j] >= threshold * count_a[j]:
            value = best_a[j]
            chain = []
            k = j
            while k >= 0:
                chain.append(k)
                k = next_a[k]
    for j in range(n):
        # The last of a stack whose checkers lie on the ones before has nothing on it when it
        # only touches the one before: its whole rim shows, as a lone checker's must.
        bare = prev_b[j] >= 0 and not overlap_l[prev_b[j]][j]
        if bare and full_l[j] < threshold:
            continue
        # When the last lies under the one before, it is the stack's far end as the base is its
        # near one: a clear checker of its own, with a rim of its own aside (_rim_aside; out in
        # the field, unlike the base at the edge), not a faint ring beyond the stack.
        if prev_b[j] >= 0 and not bare and not (best_any[usable[j]] >= base_level and aside_l[j]):
            continue
        if best_b[j] > value and sum_b[j] >= threshold * count_b[j]:
            value = best_b[j]
            back = []
            k = j
            while k >= 0:
                back.append(k)
                k = prev_b[k]
            chain = back[::-1]
    if len(chain) >= 3:
        # Players space a stack evenly: a first step much longer than the rest means the "base"
        # is something else at the edge and the stack really stands on the facing point.
        steps = np.diff(ys[[usable[i] for i in chain]])
        if steps[0] > 1.45 * float(median_of(steps[1:])) + 0.2 * radius:
            chain = []
    if (len(chain) == 1 and far_arc_all is not None
            and far_arc_all[usable[chain[0]]] < _f32(LONE_FAR_ARC)):
        # An empty point's base rings like a checker except toward the point's tip, where the
        # triangle narrows away inside the ring: a lone checker's rim shows there too.
        chain = []
    beyond = follows_l[chain[-1]] if chain else first_l
    rivals = [full_l[k] for k in indices if beyond[k]]
    return [usable[i] for i in chain], max(rivals) if rivals else 0.0


@dataclass
class _Candidates:
    """Possible checker centres along one point's axis, with their rim evidence."""

    ys: np.ndarray  # distance from the point's edge
    px: np.ndarray
    py: np.ndarray
    full: np.ndarray
    no_far: np.ndarray
    no_near: np.ndarray
    colours: np.ndarray  # mean Lab around each candidate
    #: Rim share on the arc facing the board's centre alone, or 1 where the candidate's
    #: middle differs in colour from the point further on (no empty base there).
    far_arc: np.ndarray
    #: Rim share without the arcs where touching neighbours meet it (RingScorer.contact_free);
    #: None: the share all round.
    contact_free: np.ndarray | None = None
    _close: list[list[bool]] | None = dc_field(default=None, repr=False)
    _distances: np.ndarray | None = dc_field(default=None, repr=False)
    #: How many of the candidates the ring map proposed (the first ones); those after them
    #: are the centres of whole-stack models fitted later (:meth:`add`).
    proposed: int = dc_field(default=-1, repr=False)
    #: A faint pile taken short of the threshold whose count its rims' rhythm does not
    #: confirm (see :data:`NEARLY_RHYTHM`): the point is doubtful while this is its stack.
    unsure: list[int] | None = dc_field(default=None, repr=False)
    #: Seen at a slant (a raised read, see :func:`find_checkers`), where the checkers after
    #: the base of a tall overlapped pile are seen moved from their even places: ``(x, y,
    #: step, outward)`` -> (dx, dy) pixels, for a base at (x, y), a step of ``step`` pixels
    #: and the pile growing toward ``outward`` y (+1 or -1); None: they are not.
    lean: Leaning | None = dc_field(default=None, repr=False)
    #: The field is defocused (see :data:`SOFT_PILE_TOP_LEAST`).
    soft: bool = dc_field(default=False, repr=False)
    #: The point's edge is above its checkers in the image (a top point).
    edge_up: bool = dc_field(default=True, repr=False)
    _base_lean: tuple | None = dc_field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.contact_free is None:
            self.contact_free = self.full.copy()
        if self.proposed < 0:
            self.proposed = len(self.ys)

    def add(self, scorer: RingScorer, ys: np.ndarray, px: np.ndarray, py: np.ndarray,
            evidence: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
            colour_at: tuple[np.ndarray, np.ndarray] | None = None) -> int:
        """Append centres at (``px``, ``py``), ``ys`` from the edge, with their rim evidence
        (full, no_far, no_near, far_arc); their mean colours are read at ``colour_at``
        (default: the centres).  Returns the index of the first one added."""
        base = len(self.ys)
        full, no_far, no_near, far_arc = evidence
        cx, cy = colour_at if colour_at is not None else (px, py)
        self.ys = np.concatenate([self.ys, ys])
        self.px = np.concatenate([self.px, px])
        self.py = np.concatenate([self.py, py])
        self.full = np.concatenate([self.full, full])
        self.no_far = np.concatenate([self.no_far, no_far])
        self.no_near = np.concatenate([self.no_near, no_near])
        self.far_arc = np.concatenate([self.far_arc, far_arc])
        self.contact_free = np.concatenate([self.contact_free, scorer.contact_free(px, py)])
        self.colours = np.concatenate([self.colours, scorer.colour_at(cx, cy)])
        return base

    @property
    def close(self) -> list[list[bool]]:
        """Which pairs of candidates are alike enough in colour to be in one stack
        (:func:`_colour_close`), made once for the candidates there are."""
        if self._close is None or len(self._close) != len(self.ys):
            self._close = (self.distances < COLOUR_JUMP).tolist()
        return self._close

    @property
    def distances(self) -> np.ndarray:
        """:func:`_colour_distances` of the candidates there are, made once."""
        if self._distances is None or len(self._distances) != len(self.ys):
            self._distances = _colour_distances(self.colours)
        return self._distances

    def chain(self, radius: float, threshold: float, limit: float,
              first_min: float = FIRST_MIN, proposed_only: bool = False
              ) -> tuple[list[int], float]:
        """The best stack over the candidates (:func:`_chain`); ``proposed_only``: over those
        the ring map proposed, not the centres of models fitted since."""
        pile_least = SOFT_PILE_TOP_LEAST if self.soft else PILE_TOP_LEAST
        if proposed_only and self.proposed < len(self.ys):
            p = self.proposed
            chain, rival = _chain(self.ys[:p], self.full[:p], self.no_far[:p], self.no_near[:p],
                                  radius, threshold, limit, self.colours[:p], first_min,
                                  self.far_arc[:p], lambda: [r[:p] for r in self.close[:p]],
                                  self.contact_free[:p], lambda: self.distances[:p, :p],
                                  pile_least=pile_least)
        else:
            chain, rival = _chain(self.ys, self.full, self.no_far, self.no_near, radius,
                                  threshold, limit, self.colours, first_min, self.far_arc,
                                  lambda: self.close, self.contact_free, lambda: self.distances,
                                  self.base_lean(radius, first_min), pile_least=pile_least)
        return _without_odd_hidden_end(self, chain, radius, threshold), rival

    def base_lean(self, radius: float, first_min: float) -> np.ndarray | None:
        """Per candidate that may be a stack's base (see :data:`FIRST_MAX`), how far along the
        axis, outward, the checkers after it are seen moved when it is the base of a tall
        pile stepping :data:`LEAN_STEP` radii (see :attr:`lean`); 0 elsewhere; None when
        nothing leans."""
        if self.lean is None:
            return None
        key = (self.ys.size, first_min)
        if self._base_lean is not None and self._base_lean[0] == key:
            return self._base_lean[1]
        outward = 1.0 if self.edge_up else -1.0
        along = np.zeros(self.ys.size, np.float32)
        for i in np.flatnonzero((self.ys >= first_min * radius)
                                & (self.ys <= FIRST_MAX * radius)).tolist():
            along[i] = outward * self.lean.shift(float(self.px[i]), float(self.py[i]),
                                                 LEAN_STEP * radius, outward)[1]
        self._base_lean = (key, along)   # (chains are asked for again as columns settle)
        return along


def _without_odd_hidden_end(cand: _Candidates, chain: list[int], radius: float,
                            threshold: float) -> list[int]:
    """The stack without its last checker when that one lies under the one before (overlapped,
    its rim not whole) and its colour is not clearly the same (:data:`HIDDEN_END_JUMP`).

    Such an end shows only part of a rim, and the point's paint beside a checker's rim (the
    base of a triangle just beyond a stack) does too; a checker under its neighbour has the
    neighbour's colour.  The checker left alone must then pass a lone checker's test.
    """
    if len(chain) < 2:
        return chain
    end, before = chain[-1], chain[-2]
    if (cand.full[end] >= threshold
            or cand.ys[end] - cand.ys[before] >= OVERLAP_BELOW * radius):
        return chain
    pair = weighted(cand.colours[[end, before]])
    if float(np.sqrt(((pair[0] - pair[1]) ** 2).sum())) < HIDDEN_END_JUMP:
        return chain
    chain = chain[:-1]
    if len(chain) == 1 and cand.far_arc[chain[0]] < LONE_FAR_ARC:
        return []
    return chain


def _clipped_stack_ends(scorer: RingScorer, candidates: dict, chains: dict, radius: float,
                        threshold: float, limit: float, height: int) -> None:
    """Small stacks whose last checker is clipped white by glare take their next checkers
    where the rims show over the directions that could show one (see
    :data:`CLIPPED_SEEN_LEAST`), one at a time, evenly spaced, clear of the facing stack.
    Small stacks of light checkers take them so where the rims show faintly but the far arc
    steps clearly (see :data:`LIGHT_END`).
    """
    # (Few stacks end light: plain Python until one does; this runs on every read.)
    clipped, light_end = _f32(CLIPPED_LIGHTNESS), _f32(LIGHT_END)
    lightness = scorer.lab[:, :, 0]
    for (row, column), cand in candidates.items():
        chain, rival = chains[row, column]
        if not chain or len(chain) > PAINT_END_MOST:
            continue
        light = cand.colours[:, 0].tolist()
        if light[chain[-1]] < light_end:
            continue
        facing = _facing_end(candidates, chains, row, column, height)
        edge_up, ys = row == "top", cand.ys.tolist()
        grown = list(chain)
        while len(grown) <= PAINT_END_MOST:
            last = grown[-1]
            beyond = [k for k in _one_step_on(ys, grown, radius, limit)
                      if ys[k] < facing - FACING_TOUCH * radius and light[k] >= light_end
                      and cand.distances[last][k] < HIDDEN_END_JUMP]
            if not beyond:
                break
            idx = np.array(beyond)
            seen = _clipped_seen_shares(scorer, lightness, cand.px[idx], cand.py[idx], radius,
                                        edge_up)
            passing = []
            for k, share, far, seen_part in zip(beyond, *seen):
                if seen_part < CLIPPED_SEEN_LEAST:
                    continue
                # Clipped white, its rim whole where one could show; or light, its rim
                # faint but its far arc stepping clearly.
                if ((light[last] >= clipped and light[k] >= clipped and share >= threshold
                     and far >= LONE_FAR_ARC)
                        or (share >= FAINT_END_ROUND and far >= FAINT_END_FAR
                            and _far_axis_circle_step(lightness, float(cand.px[k]),
                                                      float(cand.py[k]), radius, edge_up)
                            >= FAINT_END_STEP)):
                    passing.append((share, k))
            if not passing:
                break
            grown.append(max(passing)[1])
        if len(grown) > len(chain):
            chains[row, column] = (grown, rival)


def _without_tight_steps(candidates: dict, chains: dict, radius: float, threshold: float
                         ) -> None:
    """Stacks of at most :data:`FLAT_MOST` checkers end before their first step shorter than
    :data:`TIGHT_STEP` radii to a checker short of ``threshold`` all round (lying under the one
    before, not on it); a checker so left alone must show its far arc as a lone one does
    (:data:`LONE_FAR_ARC`), else the point is read empty.

    >>> cand = _Candidates(np.float32([12, 26, 50]), *(np.zeros(3, np.float32),) * 5,
    ...                    np.zeros((3, 3), np.float32), np.ones(3, np.float32))
    >>> chains = {("top", 0): ([0, 1], 0.0), ("top", 1): ([0, 2], 0.0)}
    >>> _without_tight_steps({("top", 0): cand, ("top", 1): cand}, chains, 11.5, 0.82)
    >>> chains[("top", 0)][0], chains[("top", 1)][0]
    ([0], [0, 2])
    """
    tight = TIGHT_STEP * radius
    for key, cand in candidates.items():
        chain, rival = chains[key]
        if not 2 <= len(chain) <= FLAT_MOST:
            continue
        ys = cand.ys.tolist()
        order = sorted(chain, key=ys.__getitem__)
        # (A checker a tight step beyond the one before that shows its whole rim lies on it,
        # as the next of a stack built from the edge does: players may push a few together.)
        cut = next((k for k in range(1, len(order)) if ys[order[k]] - ys[order[k - 1]] < tight
                    and cand.full[order[k]] < threshold), None)
        if cut is None:
            continue
        kept = order[:cut]
        if len(kept) == 1 and float(cand.far_arc[kept[0]]) < _f32(LONE_FAR_ARC):
            kept = []
        chains[key] = (kept, rival)


def _without_paint_ends(scorer: RingScorer, candidates: dict, chains: dict, centres: dict,
                        radius: float, threshold: float) -> None:
    """Small stacks (at most :data:`FLAT_MOST`) end before a last checker that lies under the
    one before (short of ``threshold`` all round, closer than :data:`OVERLAP_BELOW` radii)
    with the point's own paint in its middle (:func:`_paint_gap` below :data:`SAME_PAINT`,
    the paint taken on the empty points of the same paint in its row) where the one before
    differs from it by :data:`SAME_PAINT` or more.

    A checker half hidden under another of its player's shows that one's colour (see
    :data:`HIDDEN_END_JUMP`); the bare point just beyond a stack's end shows part of a ring
    too (the last checker's rim) and its own paint.  A checker left alone so is then judged
    as every lone reading is (:func:`_settle_lone`).  Synthetic hard seeds 0-3999 (corners
    given): the true hidden ends of small stacks differ from the checker before by 7.3 at
    most (11 of them); seed 3340's black point beyond a black checker, 13 from it and 3.1
    from the paint.

    A last checker touching the one before, short of a whole rim (:data:`WHOLE_RIM`), with the
    point's paint in its middle, ends the stack too when its far arc steps only faintly and
    as a ramp (:func:`_faint_ramp`, see :data:`PAINT_END_FAINT`): the bare paint beyond a
    checker of that paint.
    """
    lightness = scorer.lab[:, :, 0]
    for (row, column), cand in candidates.items():
        chain, rival = chains[row, column]
        if not 2 <= len(chain) <= FLAT_MOST:
            continue
        end, before = chain[-1], chain[-2]
        touching = cand.ys[end] - cand.ys[before] >= OVERLAP_BELOW * radius
        if touching:
            if cand.full[end] >= WHOLE_RIM:
                continue
        elif cand.full[end] >= threshold or cand.distances[end][before] < SAME_PAINT:
            continue
        siblings = [(row, c) for c in range(column % 2, POINTS_PER_ROW, 2)
                    if c != column and not chains[row, c][0]]
        if not siblings or _paint_gap(scorer, cand, end, siblings, centres) >= SAME_PAINT:
            continue
        if touching and not _faint_ramp(lightness, float(cand.px[end]), float(cand.py[end]),
                                        radius, row == "top"):
            continue
        chains[row, column] = (chain[:-1], rival)


def _faint_ramp(lightness: np.ndarray, x: float, y: float, radius: float, edge_up: bool
                ) -> bool:
    """Whether the far arc of a place at (``x``, ``y``) steps in lightness only faintly (a
    median :func:`_far_steps` from :data:`LONE_RIM_STEP` up to :data:`PAINT_END_FAINT`) and as
    a ramp (:func:`_far_rim_line` short of both levels by :data:`LONE_RAMP_SHORT` of its step
    over a radius): bare paint giving way to what lies beyond it, not a rim (see
    :data:`PAINT_END_FAINT`).

    >>> d = np.hypot(*np.mgrid[-40:40, -40:40].astype(np.float32))
    >>> def lighter_beyond(slope):   # paint giving way to a lighter field from 0.7 radii on
    ...     return (50 + slope * np.clip(d - 8.4, 0, None)).astype(np.float32)
    >>> _faint_ramp(lighter_beyond(3.0), 40, 40, 12.0, True)
    True
    >>> _faint_ramp(lighter_beyond(6.0), 40, 40, 12.0, True)   # a clear step: not faint
    False
    >>> rim = np.full((80, 80), 50, np.float32)
    >>> _ = cv2.circle(rim, (40, 40), 12, 38, 2)    # a dark groove: a line, no ramp
    >>> _faint_ramp(cv2.GaussianBlur(rim, (0, 0), 1.0), 40, 40, 12.0, True)
    False
    """
    steps = _far_steps(lightness, x, y, radius, edge_up)
    if steps is None or not LONE_RIM_STEP <= float(np.median(steps)) < PAINT_END_FAINT:
        return False
    short = -_far_rim_line(lightness, x, y, radius, edge_up)
    return short >= LONE_RAMP_SHORT * float(np.median(steps)) * radius


def _clipped_seen_shares(scorer: RingScorer, lightness: np.ndarray, xs: np.ndarray,
                         ys: np.ndarray, radius: float, edge_up: bool
                         ) -> tuple[list[float], list[float], list[float]]:
    """Per centre: the share of ring directions showing a rim all round and on the far arc
    (:meth:`RingScorer.coverage`), each over the directions that are not clipped white
    (:func:`_clipped_shares`), and the share of the ring that is not.

    >>> light = np.full((60, 60, 3), 255, np.uint8)
    >>> scorer = RingScorer(light, 8.0)
    >>> _clipped_seen_shares(scorer, scorer.lab[:, :, 0], np.float32([30.0]),
    ...                      np.float32([30.0]), 8.0, True)
    ([0.0], [0.0], [0.0])
    """
    full, _, _, far = scorer.coverage(xs, ys, edge_up)
    clip_full, _, _, clip_far = _clipped_shares(lightness, xs, ys, radius, edge_up)
    seen_part = 1.0 - clip_full
    seen_full = np.where(seen_part > 0, full / np.maximum(seen_part, 1e-3), 0.0)
    seen_far = np.where(1.0 - clip_far > 0, far / np.maximum(1.0 - clip_far, 1e-3), 0.0)
    return (np.minimum(seen_full, 1.0).tolist(), np.minimum(seen_far, 1.0).tolist(),
            seen_part.tolist())


def find_checkers(field: np.ndarray, geometry: BoardGeometry,
                  threshold: float = COVERAGE_THRESHOLD, layered: bool = False,
                  layer_shift: Callable[[float, float], tuple[float, float]] | None = None,
                  lean: Leaning | None = None) -> CheckerFindings:
    """Find the checkers on every point and on the bar of a canonical field image.

    ``layered``: also look for stacks built in layers (a second row on top of the first, see
    :mod:`vision.layers`), where the hidden checkers can only be inferred.  It is asked for,
    not always done, because it costs about twice a whole read on a board with tall stacks.
    ``layer_shift``: where a camera at a slant sees each layer moved over the one below, in
    image pixels, at an image position (see :func:`vision.reader.raised_view`).  ``lean``:
    where such a camera sees the checkers of a tall overlapped pile after its base moved from
    where evenly spaced flat checkers would be (each leans on the one before; see
    :class:`vision.reader.PileLean` and :attr:`_Candidates.lean`): the pile's models take it
    (:func:`_chain_leaning`, :func:`_pile_centres`).
    """
    radius = geometry.checker_radius
    h = geometry.height
    m = geometry.margin
    slack = min(m, 0.15 * radius)
    # A rim under the frame's lip at the near or far edge (a point's own edge, where its side is
    # given) is unseen, not missing (see vision.rings.LIP_BAND).
    scorer = RingScorer(field, radius, (m - slack, m - slack, m + geometry.width + slack,
                                        m + h + slack),  # field coordinates + m = image's
                        unseen=True)
    first_min = FIRST_MIN if m == 0 else min(FIRST_MIN, -m / radius + 0.2, FIRST_MIN_MARGIN)
    ys = np.arange(radius * first_min, h - radius * 0.5, 1.0, dtype=np.float32)
    # A stack may run up to the opposite edge (fifteen overlapped checkers can span the
    # field); which of two facing stacks owns checkers both reach is settled per column.
    limit = h - radius * FAR_REACH
    centres = {(row, column): m + geometry.column_x(column)
               for row in ("top", "bottom") for column in range(POINTS_PER_ROW)}
    candidates = _point_candidates(scorer, centres, ys, geometry, lean)
    chains = {key: c.chain(radius, threshold, limit, first_min) for key, c in candidates.items()}
    # Corners placed a little off (a click on the frame's lip, a skewed quadrilateral) shift
    # whole quarters sideways: where the checkers found say so, look again on the columns
    # where they really are.  A stack too far off its axis to be found there at all still
    # tells how its quarter lies (it is read again only where the quarter's fit puts it).
    measured = _with_off_axis_stacks(scorer, geometry, centres, candidates, chains,
                                     _off_axis_stacks(scorer, geometry, centres, chains, ys,
                                                      radius, threshold, limit, first_min, lean))
    shifted = _point_candidates(
        scorer, _shifted_columns(scorer, geometry, centres, *measured), ys, geometry, lean)
    for key, cand in shifted.items():
        chain = cand.chain(radius, threshold, limit, first_min)
        # A column read again where its quarter's fit puts it keeps what it found before
        # unless the new reading finds as many checkers (a fit pulled by one odd stack must
        # not lose a stack that was read right).  What it found before includes a stack found
        # beside its axis, now that the fit says the column does lie there.
        if len(chain[0]) >= len(measured[1][key][0]):
            candidates[key], chains[key] = cand, chain
        else:
            candidates[key], chains[key] = measured[0][key], measured[1][key]
    for (row, column), cand in candidates.items():
        # (A heap built in layers rings beside its line all along, its upper checkers in the
        # hollows of the ones under them: read_layered reads it from the chain's centres,
        # which a crooked pile's fit would take for one overlapped pile.)
        regular = _regular_stack(scorer, cand, chains[row, column][0], row == "top", radius,
                                 threshold, limit, first_min, crooked=not layered)
        if regular is not None:
            chains[row, column] = (regular, chains[row, column][1])
    _faint_tall_stacks(scorer, candidates, chains, radius, threshold, limit, h, first_min,
                       crooked=not layered)
    for (row, column), cand in candidates.items():
        recount = _recount(scorer, cand, chains[row, column][0], row == "top", radius)
        if recount is not None:
            chains[row, column] = (recount, chains[row, column][1])
        # (A heap built in layers rings in the hollows between its first layer's checkers:
        # read_layered reads it from the chain as found.)
        based = None if layered else _with_edge_base(
            scorer, cand, chains[row, column][0], row == "top", radius, threshold, first_min)
        if based is not None:
            chains[row, column] = (based, chains[row, column][1])
    if not layered:
        _rhythm_tops(scorer, candidates, chains, radius, threshold, limit, h)
    _without_stray_ends(candidates, chains, radius, h)
    for column in range(POINTS_PER_ROW):
        _share_column(candidates, chains, column, radius, threshold, h, first_min)
    _glare_pile_ends(scorer, candidates, chains, radius, threshold, limit, h)
    # (A stack cut before a tight step may be left with one checker: the lone readings'
    # tests below then judge it.)
    if not layered:  # a second layer lies a tight step from the first: read_layered's
        _without_tight_steps(candidates, chains, radius, threshold)
    _without_paint_ends(scorer, candidates, chains, centres, radius, threshold)
    _settle_lone(scorer, candidates, chains, centres, radius, threshold, limit, first_min, h)
    _faint_ends_off_paint(scorer, candidates, chains, centres, radius, threshold, limit, h)
    _lit_stack_ends(candidates, chains, radius, limit, h)
    _without_dice(scorer, candidates, chains, radius)
    _paint_stack_ends(scorer, candidates, chains, radius, threshold, limit, first_min, h)
    _clipped_stack_ends(scorer, candidates, chains, radius, threshold, limit, h)
    stacks: list[Stack] = []
    ends = {key: float(candidates[key].ys[chain].max()) for key, (chain, _) in chains.items()
            if chain}
    for row in ("top", "bottom"):
        for column in range(POINTS_PER_ROW):
            cand = candidates[row, column]
            chosen, next_score = chains[row, column]
            stack = Stack(row, column, next_score=next_score)
            if chosen:
                cover = np.maximum(cand.full, np.maximum(cand.no_far, cand.no_near))[chosen]
                stack.centres = list(zip(cand.px[chosen].tolist(), cand.py[chosen].tolist()))
                stack.scores = cover.tolist()
                if layered and len(chosen) >= 2:
                    _read_in_layers(field, geometry, radius, stack, layer_shift)
            # (A walk that could not hold more than a pile holds, fifteen, says nothing; nor
            # can one over fewer candidates than it needs, on most points.)
            least = max(DOUBT_RUN_LEAST, stack.count + DOUBT_SHORT)
            if least <= CHECKERS_PER_SIDE and cand.proposed >= least:
                facing_end = ends.get(("bottom" if row == "top" else "top", column))
                reach = limit if facing_end is None else h - facing_end - 1.6 * radius
                run = _ring_run(cand, radius, threshold, reach, first_min, least)
                stack.doubtful = least <= run <= CHECKERS_PER_SIDE
            if cand.unsure is not None and cand.unsure == chosen:
                stack.doubtful = True  # see NEARLY_RHYTHM
            stacks.append(stack)
    # The colours of all the checkers found, in one look-up.
    found = [c for stack in stacks for c in stack.centres]
    if found:
        colours = iter(scorer.colour_at(*np.array(found).T))
        for stack in stacks:
            stack.colours = [next(colours) for _ in stack.centres]
    stacks.append(_bar_stack(scorer, geometry, threshold,
                             np.array([c for stack in stacks for c in stack.colours])))
    return CheckerFindings(stacks, radius, threshold, scorer, geometry)


#: A point beside a stack's checker is bare there when no checker was found on it within this
#: many radii (along the axis) of that height; so is a point of the same paint taken as the
#: paint's reference.
BARE_REACH = 2.0


def _light_beside(scorer: RingScorer, geometry: BoardGeometry, stacks: list[Stack],
                  index: int) -> float | None:
    """How much lighter (8-bit Lab lightness) the paint beside point stack ``stacks[index]``
    is than the same paint elsewhere: the median, over its checkers and the two points beside
    it where bare at the checker's height (:data:`BARE_REACH`), of that point's lightness
    there less the median of the bare points of its paint (every other point of the row) at
    the same height.  None where no point beside it is bare with a bare one of its paint.

    Glare and shade are smooth over the board: what lights or shades a stack lights or shades
    the bare paint beside it, and the same paint elsewhere shows how it looks without.

    >>> from calibration.geometry import BoardGeometry
    >>> geometry = BoardGeometry.default(aspect=0.9)
    >>> x, y = geometry.column_x(3), geometry.height - geometry.checker_radius
    >>> stacks = [Stack("bottom", c, [(x, y)] if c == 3 else []) for c in range(12)]
    >>> def beside(spot: int) -> float:   # a grey board, a patch of light or shade about x, y
    ...     field = np.full((geometry.height, geometry.width, 3), 90, np.uint8)
    ...     _ = cv2.circle(field, (int(x), int(y)), int(3 * geometry.checker_radius), spot, -1)
    ...     scorer = RingScorer(cv2.GaussianBlur(field, (0, 0), 2.0), geometry.checker_radius)
    ...     return _light_beside(scorer, geometry, stacks, 3)
    >>> beside((150, 150, 150)) > 40, beside((40, 40, 40)) < -40, beside((90, 90, 90)) == 0
    (True, True, True)
    """
    stack = stacks[index]
    by_point = {(s.row, s.column): s for s in stacks}
    reach = BARE_REACH * scorer.radius
    m = geometry.margin

    def bare(column: int, y: float) -> bool:
        return all(abs(cy - y) > reach for _, cy in by_point[stack.row, column].centres)

    groups: list[int] = []  # per point compared: how many of its paint it is compared with
    xs, ys = [], []
    for x, y in stack.centres:
        offset = x - (m + geometry.column_x(stack.column))
        for side in (stack.column - 1, stack.column + 1):
            if not 0 <= side < POINTS_PER_ROW or not bare(side, y):
                continue
            same = [c for c in range(side % 2, POINTS_PER_ROW, 2)
                    if c not in (side, stack.column) and bare(c, y)]
            if same:
                groups.append(len(same))
                xs.extend(m + geometry.column_x(c) + offset for c in [side] + same)
                ys.extend([y] * (1 + len(same)))
    if not groups:
        return None
    lightness = scorer.colour_at(np.array(xs, np.float32), np.array(ys, np.float32))[:, 0]
    lifts, start = [], 0
    for count in groups:
        lifts.append(float(lightness[start] - np.median(lightness[start + 1:start + 1 + count])))
        start += 1 + count
    return float(np.median(lifts))


def _ring_run(cand: _Candidates, radius: float, threshold: float, limit: float,
              first_min: float, least: int = DOUBT_RUN_LEAST) -> int:
    """How many checkers the ring map's own proposals on a point (``cand``, the candidates it
    proposed, not the centres of models fitted since) line up as one pile: the longest walk
    from a clear base at the edge (a candidate within ``first_min`` to :data:`FIRST_MAX` radii
    showing ``threshold`` of its rim) along the axis, each step to the nearest candidate a
    checker's spacing further (:data:`MIN_STEP` to :data:`MAX_STEP` radii), before ``limit``,
    showing at least :data:`MEMBER_FLOOR` of its rim but for its far arc (the one the next
    checker of a pile hides) and clearly of the paint of the one before
    (:data:`HIDDEN_END_JUMP`).  0 when there is no such base, or too few such candidates for a
    walk of ``least`` (most points).  See :data:`DOUBT_RUN_LEAST`.

    Seven candidates 15 pixels apart (radius 11), the first a clear base, each with 0.7 of its
    rim but for the far arc:

    >>> ys = np.float32([12, 27, 42, 57, 72, 87, 102])
    >>> cand = _Candidates(ys, *(np.zeros(7, np.float32),) * 2, np.full(7, 0.9, np.float32),
    ...                    np.full(7, 0.7, np.float32), np.zeros(7, np.float32),
    ...                    np.zeros((7, 3), np.float32), np.ones(7, np.float32))
    >>> _ring_run(cand, 11.0, 0.82, 200.0, 0.4), _ring_run(cand, 11.0, 0.82, 90.0, 0.4)
    (7, 6)
    >>> _ring_run(cand, 11.0, 0.82, 90.0, 0.4, least=8)
    0
    """
    p = cand.proposed
    if p < least:
        return 0
    # (Plain Python over a point's few candidates, once numpy has said a walk that long may
    # be there at all: on most points none is.)
    rims = cand.no_far[:p] >= _f32(MEMBER_FLOOR)
    if int(np.count_nonzero(rims)) < least - 1:
        return 0
    ys = cand.ys[:p].tolist()
    top = _f32(limit)
    members = sorted((i for i, rim in enumerate(rims.tolist()) if rim and ys[i] <= top),
                     key=ys.__getitem__)
    low, high, clear = _f32(first_min * radius), _f32(FIRST_MAX * radius), _f32(threshold)
    best_any = np.maximum(cand.full[:p], np.maximum(cand.no_far[:p], cand.no_near[:p])).tolist()
    bases = [i for i, y in enumerate(ys) if low <= y <= high and y <= top
             and best_any[i] >= clear]
    if not bases or len(members) < least - 1:
        return 0
    paint = weighted(cand.colours[:p]).tolist()
    member_ys = [ys[k] for k in members]
    step_lo, step_hi = MIN_STEP * radius, MAX_STEP * radius
    longest, furthest = 0, -1.0
    for base in bases:
        run, last = 1, base
        while True:
            last_y, last_paint = ys[last], paint[last]
            after = None
            for k in members[bisect.bisect_left(member_ys, last_y + step_lo):]:
                if ys[k] - last_y > step_hi:
                    break
                if math.dist(paint[k], last_paint) < HIDDEN_END_JUMP:
                    after = k
                    break
            if after is None:
                break
            run, last = run + 1, after
        if ys[last] > furthest:
            longest, furthest = run, ys[last]
    return longest


def _read_in_layers(field: np.ndarray, geometry: BoardGeometry, radius: float,
                    stack: Stack,
                    layer_shift: Callable[[float, float], tuple[float, float]] | None = None
                    ) -> None:
    """Replace a point's stack by its reading as built in layers, when it is one (hidden
    checkers included; each scored as the best rim seen, as nothing else of them shows)."""
    top = stack.row == "top"
    edge_y = geometry.margin if top else geometry.margin + geometry.height
    lean = (0.0, 0.0)
    if layer_shift is not None:
        dx, dy = layer_shift(*stack.centres[0])
        lean = ((dy if top else -dy) / radius, dx / radius)   # along, across the point
    layered = read_layered(field, edge_y, 1 if top else -1, radius, stack.centres, lean)
    if layered is not None:
        stack.centres = list(layered.centres)
        stack.scores = [max(stack.scores)] * layered.count


def _point_candidates(scorer: RingScorer, points: dict[tuple[str, int], float], ys: np.ndarray,
                      geometry: BoardGeometry,
                      lean: Leaning | None = None) -> dict[tuple[str, int], _Candidates]:
    """Candidate centres along the axes of points (``(row, column)`` -> image x of the point's
    centre line): peaks of the coarse ring score (best of a few lateral offsets), with their
    rim coverage.  All points at once: per-call overhead dominates per-point work.  ``lean``:
    see :attr:`_Candidates.lean`."""
    keys = list(points)
    if not keys:
        return {}
    m, h = geometry.margin, geometry.height
    lateral = np.array(LATERAL_OFFSETS, np.float32) * geometry.point_width
    cx = np.array([points[k] for k in keys], np.float32)[:, None] + lateral[None, :]
    top = np.array([k[0] == "top" for k in keys])
    cy = np.where(top[:, None], m + ys[None, :], m + h - ys[None, :]).astype(np.float32)
    grid = scorer.score(cx[:, :, None], cy[:, None, :])  # point, lateral offset, distance
    best_lateral, profile = _best_of_rows(grid)
    # A 1x3 window keeps the rows (points) apart: local maxima along each axis.
    dilated = cv2.dilate(profile.astype(np.float32), np.ones((1, 3), np.uint8))
    point, index = np.nonzero((profile >= dilated) & (profile > 0))
    px = cx[point, best_lateral[point, index]]
    py = cy[point, index]
    # Both rows in one sampling (a top point's edge is above its checkers).
    px, (full, no_far, no_near, far_arc, contact_free) = _in_line_with_neighbours(
        scorer, point, py, px, top[point], scorer.coverage_and_contact_free(px, py, top[point]))
    colours = scorer.colour_at(px, py)
    # The point's own paint one diameter further toward its tip: an empty base's "disc" is
    # that paint, so only there does a weak far arc speak against a checker.
    # (On the point's axis: the triangle narrows, and a candidate may sit off the axis.)
    further = np.where(top[point], py + 2 * scorer.radius, py - 2 * scorer.radius)
    axis_x = cx[point, len(LATERAL_OFFSETS) // 2]
    paint = scorer.colour_at(axis_x, further)
    gap = np.sqrt(((weighted(colours) - weighted(paint)) ** 2).sum(axis=1))
    far_arc = np.where(gap < SAME_PAINT, far_arc, 1.0).astype(np.float32)
    found = {}
    # np.nonzero lists the peaks point by point: each point's are one slice.
    bounds = np.searchsorted(point, np.arange(len(keys) + 1)).tolist()
    for k, key in enumerate(keys):
        sel = slice(bounds[k], bounds[k + 1])
        found[key] = _Candidates(ys[index[sel]], px[sel], py[sel], full[sel], no_far[sel],
                                 no_near[sel], colours[sel], far_arc[sel], contact_free[sel])
    for (row, _), cand in found.items():
        cand.lean, cand.edge_up, cand.soft = lean, row == "top", scorer.softness < SOFT_FIELD
    return found


def _in_line_with_neighbours(scorer: RingScorer, point: np.ndarray, py: np.ndarray,
                             px: np.ndarray, edge_up: np.ndarray, evidence: tuple[np.ndarray, ...]
                             ) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """Candidate x and rim evidence (:meth:`RingScorer.coverage_and_contact_free`'s five
    shares), a borderline candidate next to a clear checker on its point read again in line
    with that checker.

    Players stack checkers in a column, and the coarse ring map that places candidates is
    made at half resolution and sampled at a few lateral offsets: a stack's next checker may
    be placed a pixel or two beside its rim's centre, where the ring misses the rim on one side.
    Borderline: a rim share all round within :data:`REFINE_BELOW` under the threshold.  Its
    neighbour: the nearest candidate of the same point one stack step away (:data:`MIN_STEP`
    to :data:`MAX_STEP` radii) whose share clears the threshold.  The candidate is moved to
    the neighbour's x when its share all round clears the threshold there: in line with the
    stack its rim shows whole.  A share that stays borderline there does not say where its
    centre is (the neighbour itself may sit a little beside its own), so it is left where the
    ring map put it.
    """
    full = evidence[0]
    clear = full >= COVERAGE_THRESHOLD
    borderline = np.flatnonzero(~clear & (full >= COVERAGE_THRESHOLD - REFINE_BELOW))
    if borderline.size == 0 or not clear.any():
        return px, evidence
    lo, hi = MIN_STEP * scorer.radius, MAX_STEP * scorer.radius
    # Borderline candidates by clear ones: the nearest clear one of the same point within a
    # stack's step (the first of equally near ones, in the candidates' order).
    anchors = np.flatnonzero(clear)
    gaps = np.abs(py[borderline, None] - py[None, anchors])
    gaps[(point[borderline, None] != point[None, anchors]) | (gaps < lo) | (gaps > hi)] = np.inf
    nearest = gaps.argmin(axis=1)
    found = np.isfinite(gaps[np.arange(borderline.size), nearest])
    which, tx = borderline[found], px[anchors[nearest[found]]]
    beside = tx != px[which]
    which, tx = which[beside], tx[beside]
    if which.size == 0:
        return px, evidence
    trial = scorer.coverage_and_contact_free(tx, py[which], edge_up[which])
    better = trial[0] >= COVERAGE_THRESHOLD
    if not better.any():
        return px, evidence
    moved = which[better]
    px = px.copy()
    px[moved] = tx[better]
    refined = []
    for share, trial_share in zip(evidence, trial):
        share = np.array(share, copy=True)
        share[moved] = trial_share[better]
        refined.append(share)
    return px, tuple(refined)


def _best_of_rows(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per point and distance of a (point, lateral offset, distance) grid: the first lateral
    offset with the highest score, and that score (``np.argmax`` over the middle axis and the
    maxima), one offset after the other: a reduction over a middle axis walks the grid
    several times slower.

    >>> grid = np.float32([[[1, 5, 2], [3, 5, 0], [3, 1, 2]]])
    >>> [v.tolist() for v in _best_of_rows(grid)]
    [[[1, 0, 0]], [[3.0, 5.0, 2.0]]]
    """
    best = grid[:, 0, :].copy()
    which = np.zeros(best.shape, np.intp)
    for offset in range(1, grid.shape[1]):
        scores = grid[:, offset, :]
        better = scores > best  # ties keep the earlier offset, as argmax does
        which[better] = offset
        np.maximum(best, scores, out=best)
    return which, best


def _off_axis_stacks(scorer: RingScorer, geometry: BoardGeometry, centres: dict, chains: dict,
                     ys: np.ndarray, radius: float, threshold: float, limit: float,
                     first_min: float,
                     lean: Leaning | None = None
                     ) -> dict[tuple[str, int], tuple[_Candidates, tuple]]:
    """Stacks on columns where none was found, looked for beside the axis: the strongest ring
    near the field edge within :data:`SHIFT_SEARCH` point widths of the column's axis, when it
    lies beyond the lateral offsets already tried there, is read as a point of its own.

    A corner placed off shifts the columns by a growing amount across a quarter: a quarter's
    outer stack may sit a third of a point width off its axis while the inner one sits right,
    and a fit over the stacks found (all near their axes) cannot tell.  Only a stack on its
    own (a clear ring peak there, not the neighbour column's checkers) counts.
    """
    width = geometry.point_width
    reach = int(np.ceil(SHIFT_SEARCH * width))
    tried = (max(LATERAL_OFFSETS) + 0.5 * (LATERAL_OFFSETS[1] - LATERAL_OFFSETS[0])) * width
    m, h = geometry.margin, geometry.height
    near, far = max(first_min, 0.0) * radius, FIRST_MAX * radius
    # The best ring over the band where a stack's first checker lies, per image column (one
    # reduction per row of points; each column's window is then a slice of it).
    bands = {"top": (int(m + near), int(np.ceil(m + far)) + 1),
             "bottom": (int(m + h - far), int(np.ceil(m + h - near)) + 1)}
    strongest = {row: scorer.map[max(y0, 0):min(y1, scorer.height)].max(axis=0)
                 for row, (y0, y1) in bands.items()
                 if any(not chains[row, n][0] for n in range(POINTS_PER_ROW))}
    probes: dict[tuple[str, int], float] = {}
    for (row, column), axis in centres.items():
        if chains[row, column][0]:
            continue
        x0, x1 = max(int(round(axis)) - reach, 0), min(int(round(axis)) + reach + 1, scorer.width)
        window = strongest[row][x0:x1]
        if window.size == 0:
            continue
        best = int(window.argmax())
        # A peak at the window's side is a shoulder of something beyond it (the neighbour's).
        if best in (0, window.size - 1) or abs(x0 + best - axis) <= tried:
            continue
        probes[row, column] = float(x0 + best)
    if not probes:
        return {}
    found = {}
    for key, cand in _point_candidates(scorer, probes, ys, geometry, lean).items():
        chain = cand.chain(radius, threshold, limit, first_min)
        if not chain[0]:
            continue
        # The neighbour column's own stack, found beside it, is not a second one.
        row, column = key
        xs = cand.px[chain[0]]
        neighbours = [n for n in (column - 1, column + 1) if 0 <= n < POINTS_PER_ROW
                      and chains[row, n][0]]
        if any(abs(float(np.median(xs)) - centres[row, n]) < 0.5 * width
               for n in neighbours):
            continue
        found[key] = (cand, chain)
    return found


def _with_off_axis_stacks(scorer: RingScorer, geometry: BoardGeometry, centres: dict,
                          candidates: dict, chains: dict, found: dict) -> tuple[dict, dict]:
    """The candidates and chains of every column with the stacks :func:`_off_axis_stacks`
    found beside their axes added, for measuring how the columns lie.

    A stack about half a point width off lies between two axes; when the column on its other
    side is empty too, the stack is given to the column for which the quarter's fit moves the
    columns least (corners are off by a little, not by a whole point).  Both columns are
    tried whichever of them found it, and a stack both found counts once
    (:func:`_one_stack_each`).
    """
    measured_candidates, measured_chains = dict(candidates), dict(chains)
    width = geometry.point_width
    found = _one_stack_each(found, scorer.radius)
    for (row, column), (cand, chain) in found.items():
        x = float(np.median(cand.px[chain[0]]))
        # The column whose search found the stack is always a candidate (it is the owner when
        # no other is tried): the lateral offsets may have carried the stack a little beyond
        # half a point width of its axis, and leaving the column out then handed the stack to
        # its neighbour untried.  So is the neighbour it lies toward, however far past half a
        # point width from that axis the offsets put it: a stack about half a point off lies
        # between the two axes, and which of them it is nearer to by a pixel or two says
        # nothing (real start-red-black seen from a seat: 11.1 and 13.6 pixels).
        toward = column + (1 if x > centres[row, column] else -1)
        owners = [(row, n) for n in (column - 1, column, column + 1)
                  if n == column or (n == toward and (row, n) in centres
                                     and not chains[row, n][0] and n // 6 == column // 6
                                     and (row, n) not in found)]
        quarter = range(0, 6) if column < 6 else range(6, 12)
        best_cost, best_owner = None, (row, column)
        for owner in owners:
            trial_candidates, trial_chains = dict(measured_candidates), dict(measured_chains)
            trial_candidates[owner], trial_chains[owner] = cand, chain
            columns, offsets = _quarter_offsets(scorer, geometry, centres, trial_candidates,
                                                trial_chains, row, quarter)
            line = _quarter_line(columns, offsets)
            if line is None:
                continue
            # First how well one line explains every checker of the quarter (to a tenth of a
            # point width), then how little it moves the columns.
            slope, intercept = line
            misfit = np.sqrt(np.mean((slope * np.asarray(columns) + intercept
                                      - np.asarray(offsets)) ** 2))
            largest = max(abs(slope * n + intercept) for n in quarter)
            cost = (int(misfit / (0.1 * width)), largest)
            if best_cost is None or cost < best_cost:
                best_cost, best_owner = cost, owner
        measured_candidates[best_owner], measured_chains[best_owner] = cand, chain
    return measured_candidates, measured_chains


def _one_stack_each(found: dict, radius: float) -> dict:
    """The stacks :func:`_off_axis_stacks` found, each once: a stack between two empty axes is
    found by both columns' searches, and given to each it would be counted twice in the
    quarter's fit, half a point width to either side, which fits no line (the quarter was then
    not moved at all).  Two neighbours' stacks whose middles lie within a radius of each other
    are one stack: the first column's finding stands for it, and :func:`_with_off_axis_stacks`
    tries it on both columns.

    >>> import types
    >>> def stack(x): return (types.SimpleNamespace(px=np.array([x, x])), ([0, 1], 0.0))
    >>> sorted(_one_stack_each({("top", 10): stack(294.0), ("top", 11): stack(295.0),
    ...                         ("top", 3): stack(80.0)}, 11.4))
    [('top', 3), ('top', 10)]
    """
    kept = dict(found)
    for (row, column), (cand, chain) in found.items():
        if (row, column) not in kept or (row, column - 1) not in kept:
            continue
        other, other_chain = kept[row, column - 1]
        if abs(float(np.median(cand.px[chain[0]]))
               - float(np.median(other.px[other_chain[0]]))) < radius:
            del kept[row, column]
    return kept


def _shifted_columns(scorer: RingScorer, geometry: BoardGeometry, centres: dict,
                     candidates: dict, chains: dict) -> dict[tuple[str, int], float]:
    """Columns that lie well away from where the geometry puts them, with their measured x.

    Each checker found is re-centred sideways on the coarse ring map (within half a point
    width); per quarter of a row (six columns between the field's edge and the bar) the
    offsets are fitted with a straight line across the columns (a skewed corner shifts the
    outer columns most) when they span three columns or more, else taken as one shift.
    Columns predicted to lie more than :data:`SHIFT_LEAST` point widths away are returned, so
    that they can be read again there.
    """
    width = geometry.point_width
    shifts: dict[tuple[str, int], float] = {}
    for row in ("top", "bottom"):
        for quarter in (range(0, 6), range(6, 12)):
            line = _quarter_line(*_quarter_offsets(scorer, geometry, centres, candidates,
                                                   chains, row, quarter))
            if line is None:
                continue
            slope, intercept = line
            for column in quarter:
                offset = slope * column + intercept
                if abs(offset) >= SHIFT_LEAST * width:
                    shifts[row, column] = centres[row, column] + float(
                        np.clip(offset, -SHIFT_SEARCH * width, SHIFT_SEARCH * width))
    return shifts


def _quarter_offsets(scorer: RingScorer, geometry: BoardGeometry, centres: dict,
                     candidates: dict, chains: dict, row: str, quarter: range
                     ) -> tuple[list[int], list[float]]:
    """Per checker found in a quarter of a row: its column, and how far (pixels) the ring map
    puts its centre from the column's axis (searched within :data:`SHIFT_SEARCH` point widths
    of where it was found)."""
    reach = int(np.ceil(SHIFT_SEARCH * geometry.point_width))
    columns, offsets = [], []
    for column in quarter:
        cand, chain = candidates[row, column], chains[row, column][0]
        for i in chain:
            xi = int(round(float(cand.px[i])))
            yi = int(min(max(round(float(cand.py[i])), 0), scorer.height - 1))
            lo, hi = max(xi - reach, 0), min(xi + reach + 1, scorer.width)
            best = lo + int(np.argmax(scorer.map[yi, lo:hi]))
            columns.append(column)
            offsets.append(best - centres[row, column])
    return columns, offsets


def _quarter_line(columns: list[int], offsets: list[float]) -> tuple[float, float] | None:
    """The columns' offsets across a quarter as a straight line (slope per column, offset at
    column 0), or None when the checkers found cannot tell one.

    >>> [round(v, 6) for v in _quarter_line([6, 6, 11], [-2.0, -2.0, -12.0])]
    [-2.0, 10.0]
    >>> _quarter_line([3], [4.0]) is None
    True
    """
    if not offsets:
        return None
    if max(columns) - min(columns) >= 2 and len(offsets) >= 3:
        slope, intercept = np.polyfit(np.asarray(columns, float), np.asarray(offsets), 1)
        return float(slope), float(intercept)
    # Neighbouring columns alone tell no slope (each checker sits a little off its axis): one
    # shift for the quarter, from at least two checkers.
    if len(offsets) < 2:
        return None
    return 0.0, float(np.median(offsets))


def _pile_centres(cand: _Candidates, f: int, t: int, n: int, edge_up: bool, radius: float
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centres (image x, y and distance from the edge) of a stack of ``n`` checkers from
    candidate ``f``, its base, to ``t``, its far end, evenly spaced: or, seen at a slant, as an
    overlapped pile is seen, whose checkers after its base lean on the one before and are seen
    moved from their even places by :attr:`_Candidates.lean`.

    >>> cand = _Candidates(np.float32([10, 60]), np.float32([50, 50]), np.float32([10, 60]),
    ...                    *(np.ones(2, np.float32),) * 3, np.zeros((2, 3), np.float32),
    ...                    np.ones(2, np.float32))
    >>> _pile_centres(cand, 0, 1, 6, True, 10.0)[2].tolist()
    [10.0, 20.0, 30.0, 40.0, 50.0, 60.0]
    >>> from types import SimpleNamespace
    >>> cand.lean = SimpleNamespace(shift=lambda x, y, step, outward: (0.0, 4.0 * outward))
    >>> _pile_centres(cand, 0, 1, 6, True, 10.0)[2].round(1).tolist()
    [10.0, 23.2, 32.4, 41.6, 50.8, 60.0]
    """
    share = _even_shares(n)
    x_f, y_f, d_f = cand.px[f], cand.py[f], cand.ys[f]
    x_t, y_t, d_t = cand.px[t], cand.py[t], cand.ys[t]
    step = float(d_t - d_f) / max(n - 1, 1)
    if cand.lean is None or n < 2 or step >= 2 * radius:
        return x_f + (x_t - x_f) * share, y_f + (y_t - y_f) * share, d_f + (d_t - d_f) * share
    outward = 1.0 if edge_up else -1.0
    dx, dy = cand.lean.shift(float(x_f), float(y_f), step, outward)
    along = outward * dy
    x = (x_f + dx) + (x_t - x_f - dx) * share
    y = (y_f + dy) + (y_t - y_f - dy) * share
    d = (d_f + along) + (d_t - d_f - along) * share
    x[0], y[0], d[0] = x_f, y_f, d_f
    return x, y, d


def _pile_faces(cand: _Candidates, hypotheses: list[tuple[int, int, int]], xs: list, ys: list,
                edge_up: bool, radius: float) -> np.ndarray | None:
    """Seen at a slant, the shapes (2x2 maps, see :meth:`RingScorer.coverage`) of the rings
    of whole-pile models one after the other (``hypotheses`` of (base, top, count) with
    their centres ``xs``, ``ys``, see :func:`_pile_centres`): circles for a base and for the
    checkers of a stack that does not overlap, the ellipse a leaning checker's top face is
    seen as for the others (:meth:`Leaning.face`); None when nothing leans."""
    if cand.lean is None:
        return None
    outward = 1.0 if edge_up else -1.0
    shapes = []
    for (f, t, n), x, y in zip(hypotheses, xs, ys):
        step = float(cand.ys[t] - cand.ys[f]) / max(n - 1, 1)
        model = np.tile(np.eye(2), (n, 1, 1))
        if step < 2 * radius:
            model[1:] = cand.lean.face(x[1:], y[1:], step, outward)
        shapes.append(model)
    return np.concatenate(shapes)


@functools.lru_cache(maxsize=32)
def _even_shares(n: int) -> np.ndarray:
    """``np.linspace(0, 1, n)``, made once per count (read-only): the stack models ask for it
    per hypothesis, and its own call costs more than the arithmetic they do with it.

    >>> bool(np.array_equal(_even_shares(5), np.linspace(0, 1, 5)))
    True
    """
    shares = np.linspace(0, 1, n)
    shares.flags.writeable = False
    return shares


def _regular_stack(scorer: RingScorer, cand: _Candidates, chain: list[int], edge_up: bool,
                   radius: float, threshold: float, limit: float, first_min: float,
                   crooked: bool = True) -> list[int] | None:
    """A tall overlapped stack fitted as a whole: evenly spaced checkers from a base at the edge
    to a fully visible checker further out, scored at the exact places the model puts them.

    Ring maps blur the centres of a tightly overlapped stack together, so candidate-by-candidate
    chaining can fall short; the whole-stack model does not need every centre as a candidate.
    It must keep the checkers the chain saw whole (full rim) within the slack of its centres.
    A chain of :data:`RECOUNT_LEAST` or more with a whole-rimmed end is also fitted again up to
    that end with as many checkers as the rhythm of its rims asks for, when that is more (the
    chain skipped one where two centres blurred into one).  ``crooked``: a pile may run on
    crooked past a checker that shows its whole rim (see :func:`_on_to_whole_end`).
    Returns the new chain (the fitted centres are added to ``cand``) when it is longer than
    ``chain``, else ``None``.
    """
    # A top must be a whole rim far enough out, or the chain's own end (below): most points
    # have none, and need nothing more.  (Plain Python for that test, as numpy compares: the
    # bounds rounded to float32.)
    ys_l = cand.ys.tolist()
    end = max(ys_l[i] for i in chain) if chain else 0.0
    level, nearest, furthest = _f32(threshold), _f32(4 * radius), _f32(limit)
    past = float(np.float32(end + 1.5 * radius))
    may_top_l = [f >= level and nearest <= y <= furthest
                 for f, y in zip(cand.full.tolist(), ys_l)]
    if not any(m and y > past for m, y in zip(may_top_l, ys_l)) and not any(
            may_top_l[i] for i in chain):
        return None
    may_top = (cand.full >= threshold) & (cand.ys >= 4 * radius) & (cand.ys <= limit)
    beyond = may_top & (cand.ys > end + 1.5 * radius)
    if not beyond.any() and not (chain and may_top[chain].any()):
        return None
    best_any = np.maximum(cand.full, np.maximum(cand.no_far, cand.no_near))
    # A chain may have counted its own stack short, skipping a checker where two centres
    # blurred into one: when its end shows a whole rim and the rhythm of its rims
    # (_stack_period, however faint) asks for more checkers between the same ends, the model
    # of that many from its base to that end is tried too (it must still see every rim).
    own_end, rhythm_count = -1, 0
    if len(chain) >= RECOUNT_LEAST:
        order = sorted(chain, key=lambda i: float(cand.ys[i]))
        steps = np.diff(cand.ys[order])
        usual = float(np.median(steps))
        span = float(cand.ys[order[-1]] - cand.ys[order[0]])
        mean = span / (len(order) - 1)
        # Only a chain whose steps are uneven, so that the rhythm's step is nearer its usual
        # one than its mean step is, can have skipped a checker.  (More checkers means a step
        # below the mean: none is nearer the median when the mean is not above it, so the
        # rhythm is not measured then.)
        # (Only an end that may be a top, see may_top, can change the reading.)
        if may_top[order[-1]] and mean > usual:
            step, _ = _rhythm(scorer, float(np.median(cand.px[order])),
                                    float(cand.py[order[0]]), float(cand.py[order[-1]]), radius)
            # (As in _recount, the span must be near a whole number of the rhythm's steps.)
            if (step > 0 and abs(step - usual) < mean - usual
                    and abs(span / step - round(span / step)) <= PERIOD_WHOLE):
                own_end = order[-1]
                rhythm_count = int(round(span / step)) + 1
    own = np.zeros(cand.ys.size, bool)
    if own_end >= 0 and rhythm_count > len(chain):
        own[own_end] = True
    tops = np.nonzero(beyond | (own & may_top))[0]
    if not tops.size:
        return None  # most points: no fully visible checker far enough out
    bases = np.nonzero((cand.ys >= first_min * radius) & (cand.ys <= FIRST_MAX * radius)
                       & (best_any >= MEMBER_FLOOR))[0]
    if not bases.size:
        return None
    # A checker with a whole rim lying over a would-be top, one overlapped step further and
    # of its colour, is the stack's next checker: that top is not the stack's end.
    alike = cand.close
    covered = [t for t in tops.tolist() for u in tops.tolist()
               if MIN_STEP * radius <= cand.ys[u] - cand.ys[t] < OVERLAP_BELOW * radius
               and alike[u][t]]
    if covered:
        tops = np.setdiff1d(tops, covered)
    if not tops.size:
        return None
    bases = bases[np.argsort(best_any[bases])[::-1][:2]]
    hypotheses = []
    for f in bases:
        for t in tops:
            # Cheap checks first: one colour from base to top, and rim evidence all along.
            if not alike[f][t]:
                continue
            between = (cand.ys > cand.ys[f]) & (cand.ys < cand.ys[t])
            length = float(cand.ys[t] - cand.ys[f])
            if between.sum() < length / (REGULAR_MAX_STEP * radius) - 1.5:
                continue
            if between.any() and np.mean(best_any[between] >= MEMBER_FLOOR) < 0.6:
                continue
            lo = max(3, int(np.ceil(length / (REGULAR_MAX_STEP * radius))) + 1)
            hi = int(np.floor(length / (MIN_STEP * radius))) + 1
            for n in range(max(lo, len(chain) + 1), min(hi, 15) + 1):
                if t == own_end and n != rhythm_count:
                    continue
                hypotheses.append((f, t, n))
    # Checkers the chain already saw whole (a full rim) are where they are: a model of
    # touching checkers that would move one by more than a hand's slack is a different stack
    # (one that runs past the end of this one, e.g. onto a logo printed beyond it).  (A tightly
    # overlapped model may: there the chain's "whole" checkers are often blurred pairs.)
    confident = cand.ys[chain][cand.full[chain] >= threshold] if chain else cand.ys[:0]
    slack = KEPT_SLACK * radius
    # (Blurred pairs are not evenly touching: a chain of touching checkers, each seen whole,
    # is kept by an overlapped model too, see _touching_whole.)
    whole_touching = _touching_whole(confident, len(chain), radius)
    kept, xs, ys, dist = [], [], [], []
    for f, t, n in hypotheses:
        x, y, d = _pile_centres(cand, f, t, n, edge_up, radius)
        touching = cand.ys[t] - cand.ys[f] >= OVERLAP_BELOW * radius * (n - 1)
        if ((touching or whole_touching) and confident.size
                and np.abs(confident[:, None] - d[None, :]).min(axis=1).max() > slack):
            continue
        kept.append((f, t, n))
        xs.append(x)
        ys.append(y)
        dist.append(d)
    hypotheses = kept
    if not hypotheses:
        return None
    # Hands place checkers only roughly evenly: each centre may sit a little off the model
    # along the axis.  A stack no model on its line explains is fitted again with each centre
    # where the ring map puts it beside the line (_beside): a hand's sideways slack too.
    # (Only then: a sideways slack for every model lets one with a checker too many snap each
    # centre onto some rim of a stack already explained on its line.)
    all_x, all_y = np.concatenate(xs), np.concatenate(ys)
    shifts = np.array([-REGULAR_SLACK, 0.0, REGULAR_SLACK]) * radius
    sign = 1.0 if edge_up else -1.0
    tried_y = np.concatenate([all_y + sign * d for d in shifts])
    tried_x = np.tile(all_x, len(shifts))
    best = None
    for sideways in (False, True):
        if sideways:
            tried_x = _beside(scorer, tried_x, tried_y, radius)
        full, no_far, no_near, far_arc = (v.reshape(len(shifts), -1).max(axis=0) for v in
                                          scorer.coverage(tried_x, tried_y, edge_up))
        # With that freedom the checkers must also be clearly of one paint (HIDDEN_END_JUMP):
        # centres free to move sideways find some rim on a print of the checkers' colour and
        # on the bare board beside it.
        best = _best_regular(scorer, hypotheses, xs, ys, dist, (full, no_far, no_near, far_arc),
                             radius, threshold, HIDDEN_END_JUMP if sideways else COLOUR_JUMP)
        if best is not None:
            if not sideways:
                best = _on_to_whole_end(scorer, best, hypotheses, xs, ys, dist, cand, edge_up,
                                        radius, threshold, crooked)
            break
    if best is None and cand.lean is not None:
        # Seen at a slant, a pile no model passes on rings may on the ellipses its leaning
        # checkers' top faces are seen as (on its line; only overlapped models lean).
        piles = [k for k, d in enumerate(dist) if d.size > FLAT_MOST
                 and d[-1] - d[0] < OVERLAP_BELOW * radius * (d.size - 1)]
        if piles:
            sub = [hypotheses[k] for k in piles]
            sub_x, sub_y, sub_d = ([v[k] for k in piles] for v in (xs, ys, dist))
            shapes = _pile_faces(cand, sub, sub_x, sub_y, edge_up, radius)
            line_x, line_y = np.concatenate(sub_x), np.concatenate(sub_y)
            evidence = tuple(v.reshape(len(shifts), -1).max(axis=0) for v in scorer.coverage(
                np.tile(line_x, len(shifts)),
                np.concatenate([line_y + sign * d for d in shifts]), edge_up,
                np.tile(shapes, (len(shifts), 1, 1))))
            best = _best_regular(scorer, sub, sub_x, sub_y, sub_d, evidence, radius, threshold)
    if best is None:
        return None
    _, x, y, d, a, b, c, e = best
    base = cand.add(scorer, d.astype(cand.ys.dtype), x, y, (a, b, c, e))
    return list(range(base, base + len(d)))


def _touching_whole(confident: np.ndarray, chain_size: int, radius: float) -> bool:
    """Whether a chain of ``chain_size`` checkers is a pile of touching checkers each seen
    whole: :data:`TOUCHING_WHOLE_LEAST` or more, every one with a whole rim (``confident``,
    their places along the axis) and each a touching step (:data:`OVERLAP_BELOW` radii or
    more) from the next.  Overlapped checkers hide part of each other's rims, and the blurred
    pairs of a tightly overlapped pile that look whole are not all a touching step apart.

    >>> _touching_whole(np.array([12.6, 37.6, 62.6, 88.6, 112.6]), 5, 11.6)
    True
    >>> _touching_whole(np.array([12.6, 37.6, 62.6, 88.6]), 5, 11.6)   # one not whole
    False
    >>> _touching_whole(np.array([12.6, 30.0, 55.0, 80.0]), 4, 11.6)   # an overlapped step
    False
    """
    if chain_size < TOUCHING_WHOLE_LEAST or confident.size != chain_size:
        return False
    return bool(np.diff(np.sort(confident)).min() >= OVERLAP_BELOW * radius)


def _blurred_member(scores: np.ndarray, overlapped: bool) -> int | None:
    """Whether every checker of a whole-stack model shows enough rim (``scores``, base to
    top): -1 when each shows at least :data:`MEMBER_FLOOR`; the index of the one in the middle
    of a tall overlapped stack that shows less, down to :data:`BLURRED_FLOOR` (see
    :data:`BLURRED_LEAST`; it must also be clearly of the stack's paint, which the caller
    checks); ``None`` when the model fails.

    >>> _blurred_member(np.array([0.9, 0.7, 0.85, 0.8, 0.9, 0.95]), True)
    -1
    >>> _blurred_member(np.array([0.9, 0.7, 0.55, 0.8, 0.9, 0.95]), True)
    2
    >>> _blurred_member(np.array([0.9, 0.55, 0.55, 0.8, 0.9, 0.95]), True) is None
    True
    >>> _blurred_member(np.array([0.55, 0.7, 0.9, 0.8, 0.9, 0.95]), True) is None
    True
    >>> _blurred_member(np.array([0.9, 0.7, 0.55, 0.8, 0.9, 0.95]), False) is None
    True
    """
    weak = np.flatnonzero(scores < MEMBER_FLOOR)
    if not weak.size:
        return -1
    k = int(weak[0])
    if (not overlapped or scores.size < BLURRED_LEAST or weak.size > 1 or k == 0
            or k == scores.size - 1 or scores[k] < BLURRED_FLOOR):
        return None
    return k


def _lit_along(lab: np.ndarray, limit: float) -> bool:
    """Whether a pile's checkers (8-bit Lab ``lab``, one per checker, base to top) are of one
    paint lit along the pile by glare: each lies within ``limit`` of the paint of its least lit
    half lit by white light (:func:`calibration.colours.lit_distance`), and each within
    ``limit`` of the next (lightness-weighted), as a lamp's light ramps along a glossy pile.
    A pile of one colour with checkers of another on its end steps from one to the other.

    >>> ramp = np.float32([[56, 128, 128], [88, 128, 128], [118, 128, 128], [82, 128, 128]]
    ...                   + [[45, 128, 128]] * 6)
    >>> _lit_along(ramp, HIDDEN_END_JUMP)
    True
    >>> _lit_along(np.float32([[45, 128, 128]] * 6 + [[230, 128, 128]] * 2), HIDDEN_END_JUMP)
    False
    """
    lab = np.asarray(lab, np.float32)
    steps = np.sqrt((np.diff(weighted(lab), axis=0) ** 2).sum(axis=1))
    if steps.size and steps.max() >= limit:
        return False
    paint = np.median(lab[lab[:, 0] <= np.median(lab[:, 0])], axis=0)
    return all(lit_distance(colour, paint) < limit for colour in lab)


def _lit_ends(one: np.ndarray, other: np.ndarray) -> bool:
    """Whether the lighter of two checkers (8-bit Lab) is the darker's paint lit by glare,
    within :data:`COLOUR_JUMP` (:func:`calibration.colours.lit_distance`): the two ends of a
    pile lit at one end.

    >>> _lit_ends(np.float32([146, 141, 181]), np.float32([221, 131, 179]))  # gold, lit
    True
    >>> _lit_ends(np.float32([120, 175, 160]), np.float32([150, 140, 190]))  # red, gold
    False
    """
    dark, light = (one, other) if float(one[0]) <= float(other[0]) else (other, one)
    return lit_distance(light, dark) < COLOUR_JUMP


def _of_its_stack(colours: np.ndarray, k: int) -> bool:
    """Whether checker ``k`` of a stack (weighted Lab ``colours``, one per checker) is clearly
    of the stack's paint: within :data:`HIDDEN_END_JUMP` of the others' median (``k`` -1: no
    checker to ask about).  A crescent dimmed under its neighbours has their paint; the bare
    board between two stacks that a model runs across has the board's.

    >>> _of_its_stack(np.float32([[50, 0, 0], [55, 0, 0], [52, 0, 0]]), 1)
    True
    >>> _of_its_stack(np.float32([[50, 0, 0], [80, 0, 0], [52, 0, 0]]), 1)
    False
    """
    if k < 0:
        return True
    others = np.delete(colours, k, axis=0)
    gap = colours[k] - np.median(others, axis=0)
    return float(np.sqrt((gap ** 2).sum())) < HIDDEN_END_JUMP


def _on_to_whole_end(scorer: RingScorer, best: tuple, hypotheses: list, xs: list, ys: list,
                     dist: list, cand: _Candidates, edge_up: bool, radius: float,
                     threshold: float, crooked: bool = True) -> tuple:
    """``best``, the best whole-stack model on its line (see :func:`_best_regular`), or a
    longer one from the same base, fitted with a hand's sideways slack (:func:`_beside`), when
    ``best`` ends short of a whole rim and that one runs on evenly to a candidate that shows
    one.

    The checker on top of a pile shows its whole rim; a model ending at a checker that does
    not stopped at a member of the stack.  :func:`_best_regular` then takes a longer model
    from the same base to a whole-rimmed end if one passes on the line, but a tall stack's
    checkers each sit a little beside the line through its ends: one rim that falls just
    outside the ring on the line fails the longer model there, though it passes where the
    checkers really are.  (The sideways fit is tried for those longer models only: for every
    model it lets one with a checker too many find some rim beside the line; its checkers must
    be clearly of one paint, :data:`HIDDEN_END_JUMP`, as :func:`_regular_stack` asks, or
    lit along by glare, :func:`_lit_along`.)

    (``crooked``) A ``best`` that ends at a whole rim may still have stopped short: a tall pile
    stacked crooked runs on past it, a little aside, the next checker one overlapped step
    further, of its paint, showing a rim.  The longer fit beside the line is then taken if its
    count is the rims' rhythm's (:func:`_rhythm_agrees`), as for :func:`_faint_tall_stack`.
    """
    d_best = best[3]
    end = float(d_best[-1])
    # An end that shows its whole rim may still have the pile run on past it, crooked: the
    # next checker lies one overlapped step further, of its paint, showing a rim.
    run_on = False
    if float(best[4][-1]) >= WHOLE_RIM:
        if not crooked:
            return best
        end_paint = weighted(scorer.colour_at(best[1][-1:], best[2][-1:]))[0]
        rim_any = np.maximum(cand.full, np.maximum(cand.no_far, cand.no_near))
        next_ones = np.nonzero((cand.ys > end + 0.5 * radius)
                               & (cand.ys < end + OVERLAP_BELOW * radius)
                               & (rim_any >= MEMBER_FLOOR))[0]
        run_on = any(math.dist(end_paint, weighted(cand.colours[i])[0]) < COLOUR_JUMP
                     for i in next_ones.tolist())
        if not run_on:
            return best
    base_y = float(d_best[0])
    longer = [k for k, (f, t, n) in enumerate(hypotheses)
              if abs(float(cand.ys[f]) - base_y) < 0.5 and cand.full[t] >= WHOLE_RIM
              and float(cand.ys[t]) > end + MIN_STEP * radius]
    if not longer:
        return best
    sub = [hypotheses[k] for k in longer]
    sub_x = [xs[k] for k in longer]
    sub_y = [ys[k] for k in longer]
    sub_d = [dist[k] for k in longer]
    all_x, all_y = np.concatenate(sub_x), np.concatenate(sub_y)
    shifts = np.array([-REGULAR_SLACK, 0.0, REGULAR_SLACK]) * radius
    sign = 1.0 if edge_up else -1.0
    tried_y = np.concatenate([all_y + sign * d for d in shifts])
    tried_x = _beside(scorer, np.tile(all_x, len(shifts)), tried_y, radius)
    evidence = tuple(v.reshape(len(shifts), -1).max(axis=0)
                     for v in scorer.coverage(tried_x, tried_y, edge_up))
    found = _best_regular(scorer, sub, sub_x, sub_y, sub_d, evidence, radius, threshold,
                          HIDDEN_END_JUMP)
    if found is None or float(found[4][-1]) < WHOLE_RIM:
        return best
    if run_on and not _rhythm_agrees(scorer, found[1], found[2], found[3], radius):
        return best
    return found


def _best_regular(scorer: RingScorer, hypotheses: list, xs: list, ys: list, dist: list,
                  evidence: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                  radius: float, threshold: float, colour_jump: float = COLOUR_JUMP
                  ) -> tuple | None:
    """The best of the whole-stack models of :func:`_regular_stack` (``hypotheses`` of
    (base, top, count) with their centres ``xs``, ``ys`` and distances ``dist``; ``evidence``
    the rim shares at all their centres one after the other), as (value, x, y, d, full,
    no_far, no_near, far_arc), or ``None`` when none passes; no checker's colour may lie
    ``colour_jump`` or more from the stack's median colour, unless the pile is lit along by
    glare (:func:`_lit_along`) and lies within :data:`COLOUR_JUMP` of it."""
    full, no_far, no_near, far_arc = evidence
    best = None
    passing = []
    start = 0
    for (f, t, n), x, y, d in zip(hypotheses, xs, ys, dist):
        a, b, c = full[start:start + n], no_far[start:start + n], no_near[start:start + n]
        start += n
        step = (d[-1] - d[0]) / (n - 1)
        overlapped = step < OVERLAP_BELOW * radius
        # (concatenate: np.append and np.insert do the same with more checks per call)
        later_on_top = np.concatenate((b[:-1] if overlapped else a[:-1], a[-1:]))
        earlier_on_top = np.concatenate((a[:1], c[1:] if overlapped else a[1:]))
        for scores, top_one in ((later_on_top, a[-1]), (earlier_on_top, a[0])):
            blurred = _blurred_member(scores, overlapped)
            if top_one < threshold or blurred is None or scores.mean() < threshold:
                continue
            lab = scorer.colour_at(x, y)
            colours = weighted(lab)
            spread = np.sqrt(((colours - np.median(colours, axis=0)) ** 2).sum(axis=1)).max()
            # (Under the stricter limit of a fit beside the line, a pile lit along by glare may
            # spread as far as one on its line.)
            lit = colour_jump < spread < COLOUR_JUMP and _lit_along(lab, colour_jump)
            if (spread >= colour_jump and not lit) or not _of_its_stack(colours, blurred):
                continue
            # Every checker explained counts, if clearly explained (see REGULAR_MARGIN).
            value = float((scores - threshold - REGULAR_MARGIN).sum())
            model = (value, x, y, d, a, b, c, far_arc[start - n:start])
            passing.append((f, float(a[-1]), model))
            if best is None or value > best[0]:
                best = model
    if best is None:
        return None
    # The checker on top of the pile has nothing on it: it shows its whole rim.  A best model
    # whose far end does not, while a model from the same base runs on evenly past it to a
    # far end that does, stopped at a member of the stack (a blurred or shaded stretch costs
    # the longer model more of its margin than it explains): the pile runs on to that end.
    base, end_rim = next((f, r) for f, r, m in passing if m is best)
    if end_rim < WHOLE_RIM:
        end = float(best[3][-1])
        longer = [m for f, r, m in passing
                  if f == base and r >= WHOLE_RIM and float(m[3][-1]) > end + MIN_STEP * radius]
        if longer:
            best = max(longer, key=lambda m: m[0])
    return best


def _beside(scorer: RingScorer, xs: np.ndarray, ys: np.ndarray, radius: float) -> np.ndarray:
    """Where beside each model centre (``xs``, ``ys``) the checker sits: the x within
    :data:`SIDE_SLACK` radii, in steps of :data:`REGULAR_SLACK` radii, where the coarse ring
    score is highest (a hand puts each checker of a stack a little off the line through its
    ends, as it puts a lone checker off the point's axis).

    >>> import cv2
    >>> img = np.full((80, 80, 3), 200, np.uint8)
    >>> _ = cv2.circle(img, (44, 40), 10, (40, 40, 160), -1)
    >>> scorer = RingScorer(img, 10.0)
    >>> _beside(scorer, np.float32([40.0]), np.float32([40.0]), 10.0).tolist()
    [44.0]
    """
    steps = int(round(SIDE_SLACK / REGULAR_SLACK))
    # On the line first: where the score is alike all round (argmax takes the first), the
    # checker stays on it.
    order = sorted(range(-steps, steps + 1), key=abs)
    offsets = np.array(order, np.float32) * np.float32(REGULAR_SLACK * radius)
    tried = xs[:, None] + offsets[None, :]
    best = np.argmax(scorer.score(tried, ys[:, None]), axis=1)
    return np.take_along_axis(tried, best[:, None], axis=1)[:, 0]


def _faint_tall_stacks(scorer: RingScorer, candidates: dict, chains: dict, radius: float,
                       threshold: float, limit: float, height: int, first_min: float,
                       crooked: bool = True) -> None:
    """Every point's stack read again as a faint tall stack (:func:`_faint_tall_stack`;
    ``crooked``: piles stacked crooked too) where that finds more checkers.  Facing stacks
    cannot overlap: one found from the other edge by the ordinary tests, as a stack of four or
    more, keeps the checkers it spans (a tall stack seen from the facing edge looks faint)."""
    reach = {}
    for (row, column), cand in candidates.items():
        facing = chains[row, column][0]
        facing_row = "bottom" if row == "top" else "top"
        reach[facing_row, column] = (
            min(limit, height - float(cand.ys[facing].max()) - 1.6 * radius)
            if len(facing) >= RECOUNT_LEAST else limit)
    for (row, column), cand in candidates.items():
        chain = chains[row, column][0]
        if len(chain) >= RECOUNT_LEAST:
            tall = _tall_into_glare(scorer, cand, chain, row == "top", radius, threshold,
                                    reach[row, column], first_min, crooked)
        else:
            tall = _faint_tall_stack(scorer, cand, chain, row == "top", radius, threshold,
                                     reach[row, column], first_min, crooked)
        if tall is not None:
            chains[row, column] = (tall, chains[row, column][1])


def _tall_into_glare(scorer: RingScorer, cand: _Candidates, chain: list[int], edge_up: bool,
                     radius: float, threshold: float, limit: float, first_min: float,
                     crooked: bool = True) -> list[int] | None:
    """A chain of at least :data:`RECOUNT_LEAST` that ends where glare clipped to plain white
    hides the rest of its pile, fitted again as a whole (:func:`_faint_tall_stack`, which
    scores each checker over the ring directions that could show a rim and counts one lying
    mostly in the clipped glare as unseen).

    Only a chain with a candidate clipped white in its middle beyond its end is tried (see
    :data:`CLIPPED_LIGHTNESS`); a far end clipped in its middle may be proposed by the rim it
    shows where it could show one (``glared_tops``).  The fit is taken when it holds more
    checkers, keeps every checker of the chain within :data:`KEPT_SLACK` of one of its
    centres, and puts a checker at least :data:`GLARE_PAST_LEAST` clipped beyond the chain's
    end: the chain stopped where the glare hid one, or dimmed the pile's top.  Returns the new
    chain (the fitted centres are added to ``cand``), else ``None`` (``cand`` as it was).
    """
    ys = cand.ys[chain]
    end = float(ys.max())
    if not _clipped_beyond(cand, end, limit):
        return None
    kept = dict(vars(cand))  # the fit adds its centres to cand: undone when refused
    fit = _faint_tall_stack(scorer, cand, [], edge_up, radius, threshold, limit, first_min,
                            crooked, glared_tops=True)
    if fit is not None and len(fit) > len(chain):
        centres = cand.ys[fit]
        off = float(np.abs(ys[:, None] - centres[None, :]).min(axis=1).max())
        past = np.array([i for i in fit if cand.ys[i] > end + KEPT_SLACK * radius], int)
        clipped = float(_clipped_shares(scorer.lab[..., 0], cand.px[past], cand.py[past], radius,
                                        edge_up)[0].max()) if past.size else 0.0
        if off <= KEPT_SLACK * radius and past.size and clipped >= GLARE_PAST_LEAST:
            return fit
    vars(cand).update(kept)
    return None


def _clipped_beyond(cand: _Candidates, end: float, reach: float) -> bool:
    """Whether a candidate beyond a chain's ``end`` (and within ``reach`` of the edge) is
    clipped white in its middle (:data:`CLIPPED_LIGHTNESS`): glare may hide the rest of the
    pile there."""
    beyond = (cand.ys > end) & (cand.ys <= reach)
    return bool((beyond & (cand.colours[:, 0] >= CLIPPED_LIGHTNESS)).any())


def _glare_pile_ends(scorer: RingScorer, candidates: dict, chains: dict, radius: float,
                     threshold: float, limit: float, height: int) -> None:
    """Tall chains (at least :data:`RECOUNT_LEAST`) that stop where glare clipped to plain
    white hides the rest of their pile, carried on at their own step along their own line to
    the furthest place that shows a pile's top there.

    Such a top is clipped white in its middle and shows, over the ring directions that could
    show one (:func:`_clipped_seen_shares`), the threshold's share of a rim all round and
    :data:`LONE_FAR_ARC` of one on its far arc, with at least :data:`CLIPPED_SEEN_LEAST` of
    its ring seen, as the next checker of a small stack does in :func:`_clipped_stack_ends`;
    every place before it shows at least :data:`MEMBER_FLOOR` of a rim over its seen ring or
    is unseen (:data:`UNSEEN_CHECKER` of its ring clipped).  The pile stays clear of the
    facing stack (:data:`FACING_TOUCH`) and holds fifteen at most; only a chain lying the
    usual way from its edge is carried on (:func:`_rises`: a pile's far end seen from the
    facing edge lies the other way, and glare beyond it would carry it across the pile).

    Only a chain with a candidate clipped white in its middle beyond its end is walked; those
    :func:`_tall_into_glare` could not fit through the glare (no whole rim there was proposed
    as the pile's far end) are carried on so.  Flat seeds 0-6999 (corners given), 142 chains
    walked on 120 frames: the two tops taken (seed 3823, a white 13 read 9; seed 6384, a white
    15 read 11 with a phantom 3 facing it; both now right) show 1.0 of a rim over their seen
    ring, 1.0 on their far arcs, 0.5 and 0.66 of the ring seen; of the places refused, the
    best showing a far arc and enough ring seen has 0.78 all round, the best whole rim 0.33 on
    its far arc (seed 6443's, a white 11 read 9: its top lies under the glare, not found).
    Without the :func:`_rises` test the walk also carried seed 58's far end of a white 15,
    seen from the facing edge, ten places across the pile (the reading was saved later).
    Solid 0-499 and layered 0-99: no top taken.
    """
    lightness = scorer.lab[..., 0]
    for (row, column), cand in candidates.items():
        chain, rival = chains[row, column]
        # (A pile seen from the facing edge, each checker under the one before, is not
        # carried on: see _rises.)
        if len(chain) < RECOUNT_LEAST or not _rises(cand, chain):
            continue
        order = sorted(chain, key=lambda i: float(cand.ys[i]))
        ys = cand.ys[order].astype(np.float64)
        end = float(ys[-1])
        reach = min(limit, _facing_end(candidates, chains, row, column, height)
                    - FACING_TOUCH * radius)
        if not _clipped_beyond(cand, end, reach):
            continue
        step = float(np.median(np.diff(ys)))
        if step <= 0:
            continue
        more = min(CHECKERS_PER_SIDE - len(chain), int((reach - end) // step))
        if more < 1:
            continue
        along = end + step * np.arange(1, more + 1)
        px = np.polyval(np.polyfit(ys, cand.px[order].astype(np.float64), 1), along)
        py = np.polyval(np.polyfit(ys, cand.py[order].astype(np.float64), 1), along)
        xs, yy = px.astype(np.float32), py.astype(np.float32)
        share, far, seen = _clipped_seen_shares(scorer, lightness, xs, yy, radius, row == "top")
        middle = lightness[np.clip(np.rint(yy), 0, lightness.shape[0] - 1).astype(np.intp),
                           np.clip(np.rint(xs), 0, lightness.shape[1] - 1).astype(np.intp)]
        top = 0
        for k in range(more):
            if (seen[k] >= CLIPPED_SEEN_LEAST and share[k] >= threshold
                    and far[k] >= LONE_FAR_ARC and middle[k] >= CLIPPED_LIGHTNESS):
                top = k + 1
            elif share[k] < MEMBER_FLOOR and 1.0 - seen[k] < UNSEEN_CHECKER:
                break
        if not top:
            continue
        base = cand.add(scorer, along[:top].astype(cand.ys.dtype), xs[:top], yy[:top],
                        tuple(v[:top] for v in scorer.coverage(xs[:top], yy[:top], row == "top")))
        chains[row, column] = (order + list(range(base, base + top)), rival)


def _clipped_shares(lightness: np.ndarray, xs: np.ndarray, ys: np.ndarray, radius: float,
                    edge_up: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Share of the ring directions around each centre (``xs``, ``ys``) where every sample
    across the rim is clipped white (``lightness``, 8-bit Lab, at least
    :data:`CLIPPED_LIGHTNESS`): all round, without the arc facing the board's centre, without
    the arc facing the edge, and on the arc facing the board's centre alone (the arcs of
    :meth:`RingScorer.coverage`).

    >>> light = np.full((60, 60), 120.0, np.float32)
    >>> light[:, :30] = 255  # the left half clipped
    >>> full, no_far, no_near, far = _clipped_shares(light, np.array([30.0, 30.0]),
    ...                                              np.array([30.0, 10.0]), 8.0, True)
    >>> [round(float(v), 2) for v in full], [round(float(v), 2) for v in far]
    ([0.47, 0.47], [0.44, 0.44])
    """
    angles = np.linspace(0, 2 * np.pi, COVERAGE_ANGLES, endpoint=False)
    cos, sin = np.cos(angles), np.sin(angles)
    radii = radius * np.asarray(RING_RADII)[:, None]
    h, w = lightness.shape[:2]
    fx = np.clip(np.rint(np.asarray(xs, float)[:, None, None] + radii * cos), 0, w - 1)
    fy = np.clip(np.rint(np.asarray(ys, float)[:, None, None] + radii * sin), 0, h - 1)
    # (centre, radius, direction): clipped across the rim at every radius.
    gone = (lightness[fy.astype(np.intp), fx.astype(np.intp)] >= CLIPPED_LIGHTNESS).all(axis=1)
    axis_arc = np.cos(np.radians(AXIS_ARC_DEG))
    up, down = sin < -axis_arc, sin > axis_arc
    near, far = (up, down) if edge_up else (down, up)
    return (gone.mean(axis=1), gone[:, ~far].mean(axis=1), gone[:, ~near].mean(axis=1),
            gone[:, far].mean(axis=1))


def _faint_tall_stack(scorer: RingScorer, cand: _Candidates, chain: list[int], edge_up: bool,
                      radius: float, threshold: float, limit: float, first_min: float,
                      crooked: bool = True, glared_tops: bool = False) -> list[int] | None:
    """A tall overlapped stack too faint for the chain and for :func:`_regular_stack`, fitted
    as a whole the same way (evenly spaced from a base at the edge to a far end, each centre
    within :data:`REGULAR_SLACK` of the model) with two allowances that only a whole
    overlapped stack of at least :data:`RECOUNT_LEAST` gets, never a single checker:

    * glare clipped to plain white hides a stretch of a white stack: ring directions that could
      show nothing do not count against a checker, and checkers lying mostly in it count as
      unseen (see :data:`CLIPPED_LIGHTNESS`); the count then
      follows the rims' rhythm (:func:`_seen_recount`);
    * the checker lying on top of the pile has one of its own colour under it, so the arc where
      they meet may be too faint for that checker to be proposed as the far end: it is proposed
      from its rim but for that arc, and the fit must see its whole rim where it puts it;
    * a blurred pile dims every crescent a little: when no fit passes clearly, one of at
      least :data:`BLURRED_LEAST` checkers that each show a rim may fall short of the
      threshold by one ring direction in its mean and at its top (:func:`_nearly_whole_pile`);
    * (``crooked``) a pile stacked crooked, its checkers off the line through its ends by up to
      :data:`SIDE_SLACK`, that no fit passes on that line, is fitted again with each centre
      where the ring map puts it beside the line (:func:`_beside`), as in
      :func:`_regular_stack`, its checkers then clearly of one paint (:data:`HIDDEN_END_JUMP`);
    * when no fit passes (or the sideways fit taken is off the rhythm), a blurred pile whose
      every crescent shows dimmer still is taken when the rhythm of its rims confirms the
      fit's count (:func:`_rhythmic_pile`, :data:`RHYTHM_PILE_SHORT`);
    * glare lighting a stretch of the pile spreads its checkers' colours past the fit's limit
      (:data:`COLOUR_JUMP`, :data:`HIDDEN_END_JUMP` beside the line): a clear or nearly whole
      fit whose checkers are one paint lit along (:func:`_lit_along`, each within that limit
      of the next and of the paint lit by white light) is taken all the same, as
      :func:`_best_regular` takes a lit pile; where no base and far end of one colour are
      found, ends whose lighter one is the darker's paint lit (:func:`_lit_ends`) are fitted
      so.  Over flat synthetic 0-8999, solid 0-499, layered 0-99, the real photos and
      real-aug (corners given), it passed only the fits of two piles, now read right: seed
      6076's red 14 (glare across its upper half, read empty; fits beside the line: spread
      38.6-40.4, steps 19.9 at most, each within 12.6 of the lit paint) and 4187's gold 13
      (lit from lightness 146 to 238 toward its top, read empty: no ends of one colour; fits
      on the line, spread 41.1-42.6, steps 21.8 at most of 40, colours 34.6 at most of 40).
      Of the fits it refused the nearest stepped 21.0 beside the line (2164) and 43.0 on it
      (7224); none changed a reading.

    ``glared_tops`` (asked by :func:`_tall_into_glare`, for a pile already known to run into
    clipped glare): a far end whose middle is clipped may be proposed by the rim it shows over
    the ring directions that could show one, the threshold's share of those all round or but
    for its near arc (see :data:`GLARE_PAST_LEAST`; asked for every faint pile, such ends made
    white 3s read 4 and 6 on flat seeds 5338 and 5795).

    Returns the new chain (the fitted centres are added to ``cand``) when it is longer than
    ``chain``, else ``None``.
    """
    if len(chain) >= RECOUNT_LEAST:
        return None  # a stack found as one: its count is the rhythm recount's business
    # (Plain Python over the few candidates of a point: almost all stop before the fit.)
    ys_l, full_l, near_l = cand.ys.tolist(), cand.full.tolist(), cand.no_near.tolist()
    end = max(ys_l[i] for i in chain) if chain else 0.0
    # Far ends: whole rims, or whole but where the end lies on the checker under it.
    nearest_top = max(end + 1.5 * radius, 4 * radius)
    tops = [i for i, y in enumerate(ys_l) if nearest_top < y <= limit
            and (full_l[i] >= threshold or near_l[i] >= threshold)]
    # (glared_tops) A far end whose middle is clipped white shows its rim over the ring
    # directions that could show one (see CLIPPED_LIGHTNESS).
    glared = [i for i, y in enumerate(ys_l) if glared_tops and nearest_top < y <= limit
              and i not in tops and cand.colours[i, 0] >= CLIPPED_LIGHTNESS]
    if glared:
        clip_full, _, clip_near, _ = _clipped_shares(
            scorer.lab[..., 0], cand.px[glared], cand.py[glared], radius, edge_up)
        for i, c_full, c_near in zip(glared, clip_full.tolist(), clip_near.tolist()):
            if (full_l[i] >= threshold * (1.0 - c_full)
                    or near_l[i] >= threshold * (1.0 - c_near)):
                tops.append(i)
    if not tops:
        return None
    best_any = [max(a, b, c) for a, b, c in zip(full_l, cand.no_far.tolist(), near_l)]
    lowest, highest = first_min * radius, FIRST_MAX * radius
    bases = [i for i, y in enumerate(ys_l) if lowest <= y <= highest
             and best_any[i] >= MEMBER_FLOOR]
    if not bases:
        return None
    bases = sorted(bases, key=best_any.__getitem__, reverse=True)[:2]
    rims = [v >= MEMBER_FLOOR for v in best_any]
    in_order = sorted(ys_l)
    unseen: list[bool] | None = None
    paint: list[list[float]] | None = None
    pairs, lit_pairs = [], []
    for f in bases:
        for t in tops:
            # An overlapped stack puts a ring-map peak near each of its checkers, under glare
            # too; one colour from base to far end; rim evidence all along, where anything
            # could show.
            y_f, y_t = ys_l[f], ys_l[t]
            length = y_t - y_f
            peaks = bisect.bisect_left(in_order, y_t) - bisect.bisect_right(in_order, y_f)
            if peaks < length / (OVERLAP_BELOW * radius) - 1.5:
                continue
            if paint is None:
                paint = weighted(cand.colours).tolist()
            # (As _colour_close; ends whose lighter one is the darker's paint lit by glare
            # are tried only where no ends of one colour are, see below.)
            lit_pair = math.dist(paint[f], paint[t]) >= COLOUR_JUMP
            if lit_pair and not _lit_ends(cand.colours[f], cand.colours[t]):
                continue
            between = [i for i, y in enumerate(ys_l) if y_f < y < y_t]
            if unseen is None:
                # Only a checker whose middle is clipped can lie in clipped glare.
                bright = np.nonzero(cand.colours[:, 0] >= CLIPPED_LIGHTNESS)[0]
                unseen = [False] * len(ys_l)
                if bright.size:
                    shares = _clipped_shares(scorer.lab[..., 0], cand.px[bright], cand.py[bright],
                                             radius, edge_up)[0]
                    for i, share in zip(bright.tolist(), shares.tolist()):
                        unseen[i] = share >= UNSEEN_CHECKER
            seen = [rims[i] for i in between if not unseen[i]]
            if seen and sum(seen) < 0.6 * len(seen):
                continue
            (lit_pairs if lit_pair else pairs).append((y_t, f, t))
    # A pile lit at one end by glare has ends of two colours: its fit must then show it lit
    # along (_lit_along).  Such ends are tried only where no ends of one colour are: they would
    # crowd the furthest of those out of the few tried (flat seed 356's white 11 was lost so).
    if not pairs:
        pairs = lit_pairs
    # The pile's top is the furthest end that fits: a few of the furthest are tried (each
    # costs a dozen fits).
    hypotheses = []
    for y_t, f, t in sorted(pairs, reverse=True)[:FAR_ENDS_TRIED]:
        # Overlapped steps only: touching checkers each show a rim of their own.
        length = y_t - ys_l[f]
        lo = max(RECOUNT_LEAST, len(chain) + 1, int(length / (OVERLAP_BELOW * radius)) + 2)
        hi = min(15, int(length / (MIN_STEP * radius)) + 1)
        hypotheses.extend((f, t, n) for n in range(lo, hi + 1))
    if not hypotheses:
        return None
    xs, ys, dist = [], [], []
    for f, t, n in hypotheses:
        x, y, d = _pile_centres(cand, f, t, n, edge_up, radius)
        xs.append(x)
        ys.append(y)
        dist.append(d)
    all_x, all_y = np.concatenate(xs), np.concatenate(ys)
    shifts = np.array([-REGULAR_SLACK, 0.0, REGULAR_SLACK]) * radius
    sign = 1.0 if edge_up else -1.0
    on_line = hypotheses, xs, ys, dist, all_x, all_y
    # Seen at a slant, a pile that no fit passes on rings may on the ellipses its leaning
    # checkers' top faces are seen as (_pile_faces).  A pile no fit passes on its line may
    # when each centre sits where the ring map puts it beside the line (_beside: a hand
    # stacks a tall pile a little crooked, each checker off the line through its ends), its
    # checkers then clearly of one paint (HIDDEN_END_JUMP), as in _regular_stack.
    rhythmic_fits: dict[tuple[int, int, int], tuple] = {}
    for way in ("on its line", "leaning", "sideways"):
        shapes = None
        colour_jump = COLOUR_JUMP
        tried_y = np.concatenate([all_y + sign * d for d in shifts])
        if way == "leaning":
            # (Only a pile too tall to lie flat leans: see FLAT_MOST.)
            kept = [k for k, (_, _, n) in enumerate(hypotheses) if n > FLAT_MOST]
            if cand.lean is None or not kept:
                continue
            hypotheses, xs, ys, dist = ([v[k] for k in kept] for v in (hypotheses, xs, ys, dist))
            all_x, all_y = np.concatenate(xs), np.concatenate(ys)
            tried_y = np.concatenate([all_y + sign * d for d in shifts])
            shapes = _pile_faces(cand, hypotheses, xs, ys, edge_up, radius)
            shapes = np.tile(shapes, (len(shifts), 1, 1))
        tried_x = np.tile(all_x, len(shifts))
        if way == "sideways":
            if not crooked:
                break
            hypotheses, xs, ys, dist, all_x, all_y = on_line
            tried_y = np.concatenate([all_y + sign * d for d in shifts])
            tried_x = _beside(scorer, np.tile(all_x, len(shifts)), tried_y, radius)
            colour_jump = HIDDEN_END_JUMP
        full, no_far, no_near, far_arc = (v.reshape(len(shifts), -1).max(axis=0) for v in
                                          scorer.coverage(tried_x, tried_y, edge_up, shapes))
        # Rims are scored over the ring directions that could show one (only a checker whose
        # middle is clipped can lie in clipped glare).
        lightness = scorer.lab[..., 0]
        clip_full, clip_far, clip_near = (np.zeros(all_x.size) for _ in range(3))
        bright = lightness[np.clip(np.rint(all_y), 0, lightness.shape[0] - 1).astype(np.intp),
                           np.clip(np.rint(all_x), 0, lightness.shape[1] - 1).astype(np.intp)
                           ] >= CLIPPED_LIGHTNESS
        if bright.any():
            clip_full[bright], clip_far[bright], clip_near[bright], _ = _clipped_shares(
                lightness, all_x[bright], all_y[bright], radius, edge_up)
        unseen_all = clip_full >= UNSEEN_CHECKER
        full_seen, far_seen, near_seen = (np.minimum(v / np.maximum(1.0 - clip, 1e-3), 1.0)
                                          for v, clip in ((full, clip_full), (no_far, clip_far),
                                                          (no_near, clip_near)))
        passed: dict[tuple[int, int, int], tuple] = {}
        nearly: dict[tuple[int, int, int], tuple] = {}
        start = 0
        for (f, t, n), x, y, d in zip(hypotheses, xs, ys, dist):
            part = slice(start, start + n)
            start += n
            gone = unseen_all[part]
            if gone[0] or gone[-1] or gone.sum() > UNSEEN_MOST * n:
                continue
            a, b, c = full_seen[part], far_seen[part], near_seen[part]
            # Each lies on the one before (the top one last) or the other way round; the one on
            # top of the pile shows its whole rim where the model puts it.
            later_on_top = np.concatenate((b[:-1], a[-1:]))
            earlier_on_top = np.concatenate((a[:1], c[1:]))
            colours = None
            # (A far end proposed by its rim but for its near arc lies on the pile: the other
            # way round it would lie under the others, and such a far end must be a whole-rim
            # candidate, as in _regular_stack.)
            whole = full_l[t] >= threshold
            # (The top lying on the pile may show its rim but where it lies on the one under it.)
            top_rim = _pile_top_rim(scorer, x, y, a, c, far_arc[part], threshold)
            if top_rim > a[-1]:
                later_on_top = np.concatenate((later_on_top[:-1], [top_rim]))
            ways = ((later_on_top, top_rim), (earlier_on_top, a[0])) if whole else (
                (later_on_top, top_rim),)
            for scores, top_one in ways:
                seen = scores[~gone]
                blurred = _blurred_member(seen, True)
                if blurred is None:
                    continue
                clear = top_one >= threshold and seen.mean() >= threshold
                nearly_whole = not clear and _nearly_whole_pile(seen, float(top_one), threshold)
                rhythmic = (not clear and not nearly_whole
                            and _rhythmic_pile(seen, float(top_one), threshold))
                if not (clear or nearly_whole or rhythmic):
                    continue
                if colours is None:
                    lab = scorer.colour_at(x[~gone], y[~gone])
                    colours = weighted(lab)
                    middle = np.median(colours, axis=0)
                    spread = np.sqrt(((colours - middle) ** 2).sum(axis=1)).max()
                    # A pile lit along by glare spreads from its paint to the lit paint, one
                    # step at a time (see the docstring).
                    lit = spread >= colour_jump and _lit_along(lab, colour_jump)
                if (spread >= colour_jump and not lit) or not _of_its_stack(colours, blurred):
                    continue
                if rhythmic and (spread >= HIDDEN_END_JUMP
                                 or not _rhythm_confirms(scorer, x, y, d, radius)):
                    continue
                # Unseen checkers neither add nor take away (see REGULAR_MARGIN).
                value = float((seen - threshold - REGULAR_MARGIN).sum())
                fits = passed if clear else nearly if nearly_whole else rhythmic_fits
                if (f, t, n) not in fits or value > fits[f, t, n][0]:
                    fits[f, t, n] = (value, x, y, d, full[part], no_far[part], no_near[part],
                                     far_arc[part], gone)
        if passed or nearly:
            break
    # A pile no fit passes clearly may still be one that every checker of shows (see
    # _nearly_whole_pile); only then are those fits taken.
    only_nearly = not passed
    if only_nearly:
        passed = nearly
    fit = None
    if passed:
        key = max(passed, key=lambda k: passed[k][0])
        recount = _seen_recount(scorer, *key, *passed[key][1:4], passed[key][-1], radius)
        if recount in passed:
            key = recount
        fit = passed[key]
        if recount is not None and recount not in passed:
            # No fit of the rhythm's count passed (it may lie outside the counts tried: a
            # glared pile of touching checkers is tried as an overlapped one), yet the rims
            # that show space out the pile that count: its checkers are put there.
            fit = _recounted_fit(scorer, cand, *recount, edge_up, radius,
                                 way == "leaning")
        # Centres free to move aside find some rim where there is none, as between touching
        # checkers of a blurred pile: its count must be the one the rims' rhythm asks for.
        if way == "sideways" and not _rhythm_agrees(scorer, *fit[1:4], radius):
            fit = None
    if fit is None:
        # A blurred pile fainter still whose count the rhythm confirms (_rhythmic_pile).
        if not rhythmic_fits:
            return None
        fit, only_nearly = max(rhythmic_fits.values(), key=lambda v: v[0]), False
    _, x, y, d, a, b, c, e, _ = fit
    base = cand.add(scorer, d.astype(cand.ys.dtype), x, y, (a, b, c, e))
    pile = list(range(base, base + len(d)))
    if only_nearly and not _rhythm_agrees(scorer, x, y, d, radius):
        cand.unsure = pile  # see NEARLY_RHYTHM
    return pile


def _rhythm_agrees(scorer: RingScorer, x: np.ndarray, y: np.ndarray, dist: np.ndarray,
                   radius: float) -> bool:
    """Whether the rhythm of a pile's rims (:func:`_stack_period`, however faint) agrees with
    the count of a fit (centres ``x``, ``y``, distances ``dist`` from the edge, base to top):
    its span lies within :data:`NEARLY_RHYTHM` of one step per checker but one.  A pile with no
    rhythm within the plausible steps says nothing against it."""
    off = _off_rhythm(scorer, x, y, dist, radius)
    return off is None or off <= NEARLY_RHYTHM


def _rhythm_confirms(scorer: RingScorer, x: np.ndarray, y: np.ndarray, dist: np.ndarray,
                     radius: float) -> bool:
    """Whether the rhythm of a pile's rims confirms the count of a fit (as
    :func:`_rhythm_agrees`, but a pile with no rhythm confirms nothing)."""
    off = _off_rhythm(scorer, x, y, dist, radius)
    return off is not None and off <= NEARLY_RHYTHM


def _off_rhythm(scorer: RingScorer, x: np.ndarray, y: np.ndarray, dist: np.ndarray,
                radius: float) -> float | None:
    """How many steps of the rhythm of a pile's rims (:func:`_stack_period`) the span of a fit
    (centres ``x``, ``y``, distances ``dist`` from the edge, base to top) lies off one step per
    checker but one; ``None`` when there is no rhythm within the plausible steps."""
    step, _ = _rhythm(scorer, float(np.median(x)), float(y[0]), float(y[-1]), radius)
    if step <= 0:
        return None
    return abs(float(dist[-1] - dist[0]) / step - (dist.size - 1))


def _pile_top_rim(scorer: RingScorer, x: np.ndarray, y: np.ndarray, full: np.ndarray,
                  no_near: np.ndarray, far_arc: np.ndarray, threshold: float) -> float:
    """The rim credited to the top of a pile fitted as a whole, each checker on the one before
    (centres ``x``, ``y`` and their rim shares, base to top): its whole rim (``full``), or, on
    a pile of at least :data:`PILE_TOP_LEAST` whose top shows a whole rim but where it lies on
    the one under it, of that one's paint, its rim without that arc (``no_near``; see
    :data:`PILE_TOP_LEAST`)."""
    top = float(full[-1])
    if (top >= threshold or x.size < PILE_TOP_LEAST or no_near[-1] < threshold
            or top < LONE_MOST_RIM or far_arc[-1] < LONE_FAR_ARC):
        return top
    pair = weighted(scorer.colour_at(x[-2:], y[-2:]))
    if float(np.sqrt(((pair[0] - pair[1]) ** 2).sum())) >= HIDDEN_END_JUMP:
        return top
    return float(no_near[-1])


def _nearly_whole_pile(seen: np.ndarray, top_one: float, threshold: float) -> bool:
    """Whether a faint tall stack's fit (``seen``, the rim share of each checker seen, base to
    top; ``top_one``, the whole rim of the checker on top) that falls short of ``threshold``
    is still a pile: at least :data:`BLURRED_LEAST` checkers, every one showing at least
    :data:`MEMBER_FLOOR` (none blurred away), and both the stack's mean and its top short by
    no more than :data:`PILE_SHORT`, one ring direction.

    A blurred tall stack (soft focus, a hand's blur) shows each crescent a little dimmed, so
    its mean or its top's whole rim can miss the threshold by one direction of the ring; a
    long run of evenly spaced rims none of which is missing is not what an empty point or the
    bare board beside a stack shows (their fits lose whole checkers).

    >>> _nearly_whole_pile(np.array([0.96, 0.87, 0.74, 0.78, 0.7, 0.74, 0.78, 0.91]), 0.91, 0.82)
    True
    >>> _nearly_whole_pile(np.array([0.96, 0.87, 0.74, 0.58, 0.9, 0.74, 0.78, 0.91]), 0.91, 0.82)
    False
    >>> _nearly_whole_pile(np.array([0.96, 0.87, 0.74, 0.78, 0.91]), 0.91, 0.82)
    False
    >>> _nearly_whole_pile(np.array([0.96, 0.87, 0.9, 0.88, 0.9, 0.86, 0.9, 0.75]), 0.75, 0.82)
    False
    """
    least = threshold - PILE_SHORT
    return bool(seen.size >= BLURRED_LEAST and seen.min() >= MEMBER_FLOOR
                and top_one >= least and seen.mean() >= least)


def _rhythmic_pile(seen: np.ndarray, top_one: float, threshold: float) -> bool:
    """Whether a faint tall stack's fit (``seen``, the rim share of each checker seen, base to
    top; ``top_one``, the whole rim of the checker on top) that :func:`_nearly_whole_pile`
    refuses may still be a blurred pile if the rhythm of its rims confirms its count: at least
    :data:`BLURRED_LEAST` checkers, every one showing at least :data:`MEMBER_FLOOR`, its top
    and its mean short of the threshold by no more than :data:`RHYTHM_PILE_SHORT`.

    The one crescent in the middle under the floor that :func:`_blurred_member` allows a clear
    fit is not allowed here: over flat synthetic 0-9999 (corners given) it let the rhythm
    confirm 19 more fits at 17 piles, 8 of them the wrong count (one short at 56, 5196, 5306,
    6351, 7247, 9261; 1835's red 10 as 6; 2750's red 6, touching, as 9), and it changed two
    readings: 9523's blurred blue 13 (top 0.96, mean 0.779, its 7th checker 0.61) read right,
    was empty, and 2750's red 6 read 9, was empty.  Neither the top, the mean nor where the
    faint checker lies parts the right fits from the wrong (5306's 13 for a 14: top 0.94,
    mean 0.798, faint checker two thirds up).

    >>> _rhythmic_pile(np.array([1.0, 0.65, 0.7, 0.74, 0.7, 0.74, 0.7, 1.0]), 1.0, 0.82)
    True
    >>> _rhythmic_pile(np.array([1.0, 0.65, 0.7, 0.57, 0.7, 0.74, 0.7, 1.0]), 1.0, 0.82)
    False
    >>> _rhythmic_pile(np.array([1.0, 0.65, 0.7, 0.74, 0.7, 0.74, 0.7, 1.0]), 0.72, 0.82)
    False
    """
    return bool(seen.size >= BLURRED_LEAST and seen.min() >= MEMBER_FLOOR
                and min(top_one, float(seen.mean())) >= threshold - RHYTHM_PILE_SHORT)


def _seen_recount(scorer: RingScorer, base: int, top: int, n: int, x: np.ndarray,
                  y: np.ndarray, dist: np.ndarray, gone: np.ndarray, radius: float
                  ) -> tuple[int, int, int] | None:
    """The fit up to :data:`SEEN_RECOUNT_MOST` checkers shorter or longer than ``n`` that the
    rhythm of a stack's rims (:func:`_stack_period`, base to top) asks for, as ``(base, top,
    count)``, when some of its checkers are unseen (``gone``, under clipped glare): unseen
    checkers neither add to a fit nor take from it, so fits of a checker or two more or less
    score about alike and the spacing of the rims that do show tells them apart.  ``None``
    when nothing is unseen or the rhythm has no peak within the plausible steps."""
    if not gone.any():
        return None
    step, _ = _rhythm(scorer, float(np.median(x)), float(y[0]), float(y[-1]), radius)
    if step <= 0:
        return None
    count = int(round(float(dist[-1] - dist[0]) / step)) + 1
    return (base, top, count) if 1 <= abs(count - n) <= SEEN_RECOUNT_MOST else None


def _recounted_fit(scorer: RingScorer, cand: _Candidates, base: int, top: int, n: int,
                   edge_up: bool, radius: float, leaning: bool) -> tuple:
    """A whole-pile fit of ``n`` checkers from candidate ``base`` to ``top`` evenly spaced
    (:func:`_pile_centres`; ``leaning``: on the ellipses of :func:`_pile_faces`), scored
    where it puts them, as :func:`_faint_tall_stack` keeps its fits: (value, x, y, distances,
    full, no_far, no_near, far_arc, unseen), the value not scored (0)."""
    x, y, dist = _pile_centres(cand, base, top, n, edge_up, radius)
    shapes = _pile_faces(cand, [(base, top, n)], [x], [y], edge_up, radius) if leaning else None
    full, no_far, no_near, far_arc = scorer.coverage(x, y, edge_up, shapes)
    unseen = _clipped_shares(scorer.lab[..., 0], x, y, radius, edge_up)[0] >= UNSEEN_CHECKER
    return 0.0, x, y, dist, full, no_far, no_near, far_arc, unseen


def _rhythm(scorer: RingScorer, x: float, y0: float, y1: float, radius: float
            ) -> tuple[float, float]:
    """:func:`_stack_period` on the scorer's image, made once per stack and frame: a tall
    stack's rhythm is asked for when it is fitted as a whole and again when it is recounted."""
    key = ("stack period", x, y0, y1, radius)
    if key not in scorer.memo:
        scorer.memo[key] = _stack_period(scorer.lab, x, y0, y1, radius)
    return scorer.memo[key]


def _facing_end(candidates: dict, chains: dict, row: str, column: int, height: float
                ) -> float:
    """How far from this point's edge the facing point's stack ends (its checker nearest this
    point, in the upright board's pixels along the point); infinity when it holds none.

    >>> cand = _Candidates(np.float32([10, 40]), *(np.zeros(2, np.float32),) * 5,
    ...                    np.zeros((2, 3), np.float32), np.ones(2, np.float32))
    >>> chains = {("top", 0): ([], None), ("bottom", 0): ([0, 1], None)}
    >>> _facing_end({("top", 0): cand, ("bottom", 0): cand}, chains, "top", 0, 300.0)
    260.0
    >>> _facing_end({("top", 0): cand, ("bottom", 0): cand}, chains, "bottom", 0, 300.0)
    inf
    """
    other = "bottom" if row == "top" else "top"
    facing_chain = chains[other, column][0]
    if not facing_chain:
        return float("inf")
    return height - max(candidates[other, column].ys[facing_chain].tolist())


def _chain_rhythm(scorer: RingScorer, cand: _Candidates, first: int, last: int, x: float,
                  edge_up: bool, radius: float) -> tuple[float, float, float]:
    """The rhythm of a chain's rims from its base ``first`` to its end ``last`` along ``x``
    (step and clearness, as :func:`_rhythm`; step 0 when none shows) and how far along the
    point its checkers lean over one step (seen at a slant a pile's checkers after its base are
    seen moved: see :func:`_pile_centres`), to take off a span before it is counted in steps."""
    step, clear = _rhythm(scorer, x, float(cand.py[first]), float(cand.py[last]), radius)
    lean = 0.0
    if step > 0 and cand.lean is not None and step < 2 * radius:
        sign = 1.0 if edge_up else -1.0
        lean = sign * cand.lean.shift(float(cand.px[first]), float(cand.py[first]), step,
                                      sign)[1]
    return step, clear, lean


def _stack_period(lab: np.ndarray, x: float, y0: float, y1: float, radius: float
                  ) -> tuple[float, float]:
    """The spacing of the checkers of a straight stack from its rims' rhythm: the lag (pixels)
    of the strongest autocorrelation of the across-stack edge profile along the stack's axis
    (image column ``x``, rows ``y0`` to ``y1``), with that correlation (0 when none is clear).

    Each checker of an overlapped stack shows one crescent of rim per step, so the profile of
    edges along the axis repeats with the step, however faint each rim is alone.

    >>> import cv2
    >>> img = np.full((200, 60, 3), 200, np.uint8)
    >>> for k in range(8):
    ...     _ = cv2.circle(img, (30, 20 + 20 * k), 14, (40 + 20 * (k % 2), 90, 90), -1)
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> lag, clear = _stack_period(lab, 30, 20, 160, 14.0)
    >>> round(lag), clear > 0.5
    (20, True)
    """
    half = max(1, int(0.4 * radius))
    pad = 3
    top, bottom = int(round(min(y0, y1))), int(round(max(y0, y1)))
    xi = int(round(x))
    lo_y, hi_y = max(top - pad, 0), min(bottom + pad + 1, lab.shape[0])
    lo_x, hi_x = max(xi - half - pad, 0), min(xi + half + pad + 1, lab.shape[1])
    crop = cv2.GaussianBlur(lab[lo_y:hi_y, lo_x:hi_x], (0, 0), 0.8)
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    # (cv2.transform sums the three channels several times faster than numpy's sum.)
    edges = cv2.sqrt(cv2.transform(gy * gy, np.ones((1, 3), np.float32)))
    columns = slice(max(xi - half - lo_x, 0), xi + half + 1 - lo_x)
    profile = edges[top - lo_y:bottom + 1 - lo_y, columns].mean(axis=1)
    profile = profile - profile.mean()
    energy = float(profile @ profile)
    lags = np.arange(int(np.ceil(MIN_STEP * radius)),
                     min(int(REGULAR_MAX_STEP * radius), profile.size // 2) + 1)
    if energy <= 0 or lags.size < 3:
        return 0.0, 0.0
    corr = np.correlate(profile, profile, "full")[profile.size - 1 + lags] / energy
    best = int(np.argmax(corr))
    if best == 0 or best == lags.size - 1:
        return 0.0, 0.0  # no peak inside the plausible steps
    # Parabolic refinement: the step is rarely a whole number of pixels.
    a, b, c = corr[best - 1], corr[best], corr[best + 1]
    shift = 0.5 * (a - c) / (a - 2 * b + c) if a - 2 * b + c < 0 else 0.0
    return float(lags[best] + shift), float(b)


def _recount(scorer: RingScorer, cand: _Candidates, chain: list[int], edge_up: bool,
             radius: float) -> list[int] | None:
    """A tall stack counted again from the rhythm of its rims (:func:`_stack_period`).

    Ring evidence runs all along the straight sides of an overlapped stack, so a fit can put
    one or more checkers too many (or skip every other one) between the right base and top;
    the spacing of the rims does not depend on how well each rim shows.  When the rhythm is
    clear and says a whole number of steps other than the chain's, the stack becomes that many
    checkers evenly spaced from the same base to the same top (added to ``cand``).  A faint
    rhythm does so only when the span is a tight whole number of its steps and every checker
    placed shows a rim (:data:`PERIOD_TIGHT`).
    """
    if len(chain) < RECOUNT_LEAST:
        return None
    order = sorted(chain, key=lambda i: float(cand.ys[i]))
    first, last = order[0], order[-1]
    span = float(cand.ys[last] - cand.ys[first])
    x = float(np.median(cand.px[order]))
    step, clear, lean = _chain_rhythm(scorer, cand, first, last, x, edge_up, radius)
    if step <= 0:
        return None
    steps = (span - lean) / step
    n = int(round(steps)) + 1
    # A faint rhythm is trusted only to a tight whole number of steps, and only where the
    # rims are (checked below, once the recounted centres are placed).
    faint = clear < PERIOD_CLEAR
    if faint and (n > 15 or n == len(chain) or abs(steps + 1 - n) > PERIOD_TIGHT):
        return None
    if not faint and n <= 15 and abs(steps + 1 - n) <= PERIOD_WHOLE:
        # A clear rhythm also carries the pile on to a whole top a step past the chain's.
        beyond = _whole_top_beyond(cand, first, last, step)
        if beyond is not None:
            last = beyond
            span = float(cand.ys[last] - cand.ys[first])
            steps = (span - lean) / step
            n = int(round(steps)) + 1
    if n > 15:
        # No pile holds more than fifteen: a clear rhythm that counts more over the stack
        # found runs past the pile's end (its last checkers on the facing point's paint of
        # their colour, under glare): the pile ends at its furthest clear checker a whole
        # number of steps out, fifteen at most.
        last = _rhythm_end(cand, first, step, radius)
        if last is None:
            return None
        span = float(cand.ys[last] - cand.ys[first])
        n = int(round((span - lean) / step)) + 1
    elif n == len(chain) or abs(steps + 1 - n) > PERIOD_WHOLE or n < 2:
        return None
    xs, ys, dist = (v[1:-1] for v in _pile_centres(cand, first, last, n, edge_up, radius))
    full, no_far, no_near, far_arc = scorer.coverage(xs, ys, edge_up)
    if faint and np.maximum(full, np.maximum(no_far, no_near)).min(initial=1.0) < MEMBER_FLOOR:
        return None
    base = cand.add(scorer, dist.astype(cand.ys.dtype), xs.astype(cand.px.dtype),
                    ys.astype(cand.py.dtype), (full, no_far, no_near, far_arc), colour_at=(xs, ys))
    return [first] + list(range(base, base + n - 2)) + [last]


def _whole_top_beyond(cand: _Candidates, first: int, last: int, step: float) -> int | None:
    """The candidate of ``cand`` that tops a pile from ``first`` to ``last`` whose rims repeat
    every ``step`` pixels one checker further out: one step past ``last`` and a whole number
    of steps from ``first`` (each within :data:`PERIOD_WHOLE`, fifteen checkers at most), of
    the base's colour (:data:`COLOUR_JUMP`) and showing its whole rim
    (:data:`COVERAGE_THRESHOLD`), as the checker on top of a pile does; the one showing most
    rim when several do, ``None`` when none does.

    A fit whose regular steps miss the pile's rhythm (touching steps over an overlapped pile)
    can stop a checker short of the top; the rhythm, once clear, counts it again from the same
    base to the same top (:func:`_recount`) and so stays one short.  Solid seed 74's blue 8
    (rims every 15.6 px: a chain of four touching steps ending a step below a checker showing
    its whole rim, recounted to 7) now reads 8.

    >>> cand = _Candidates(np.float32([10, 41, 73, 104, 120, 136]), np.zeros(6, np.float32),
    ...                    np.zeros(6, np.float32), np.float32([0.85, 0.8, 0.8, 0.8, 1.0, 0.9]),
    ...                    np.ones(6, np.float32), np.ones(6, np.float32),
    ...                    np.zeros((6, 3), np.float32), np.ones(6, np.float32))
    >>> _whole_top_beyond(cand, 0, 3, 15.6)  # 120 lies 7.05 steps out, one past 104
    4
    """
    steps = (cand.ys - cand.ys[first]) / np.float32(step)
    past = (cand.ys - cand.ys[last]) / np.float32(step)
    fits = ((np.abs(past - 1) <= PERIOD_WHOLE) & (steps <= 14 + PERIOD_WHOLE)
            & (np.abs(steps - np.round(steps)) <= PERIOD_WHOLE)
            & (cand.full >= COVERAGE_THRESHOLD)
            & np.array(cand.close[first], bool))
    if not fits.any():
        return None
    tops = np.flatnonzero(fits)
    return int(tops[np.argmax(cand.full[tops])])


def _with_edge_base(scorer: RingScorer, cand: _Candidates, chain: list[int], edge_up: bool,
                    radius: float, threshold: float, first_min: float) -> list[int] | None:
    """A tall pile carried down to its base at the edge: ``chain`` (added to ``cand``) with
    one checker more, evenly spaced from a base by the edge to the chain's top, or ``None``.

    Players build a pile from the field's edge, its base against it (its centre about a
    radius out).  A fit of a tall pile (:data:`EDGE_BASE_LEAST` or more) whose first checker
    lies :data:`EDGE_BASE_OFF` radii out or more, with a candidate of its paint
    (:data:`COLOUR_JUMP`) nearer the edge (from ``first_min``) that shows its rim clearly
    but for the arc the next checker hides (``no_far`` at ``threshold``), has missed the base:
    its checkers sit between the true ones (seen at a slant, the rings of a solid pile's faces
    run evenly but a fraction of a step off the ones the fit's steps met).  The pile is then
    one checker more from that base to the same top, every checker placed showing at least
    :data:`MEMBER_FLOOR` of its rim (the base showing most of its rim when several may be).
    """
    if len(chain) < EDGE_BASE_LEAST:
        return None
    order = sorted(chain, key=lambda i: float(cand.ys[i]))
    first, last = order[0], order[-1]
    if float(cand.ys[first]) < EDGE_BASE_OFF * radius:
        return None
    nearer = np.flatnonzero((cand.ys < cand.ys[first]) & (cand.ys >= first_min)
                            & (cand.no_far >= threshold) & np.array(cand.close[first], bool))
    if nearer.size == 0:
        return None
    base = int(nearer[np.argmax(cand.no_far[nearer])])
    n = len(chain) + 1
    xs, ys, dist = (v[1:-1] for v in _pile_centres(cand, base, last, n, edge_up, radius))
    full, no_far, no_near, far_arc = scorer.coverage(xs, ys, edge_up)
    if np.maximum(full, np.maximum(no_far, no_near)).min(initial=1.0) < MEMBER_FLOOR:
        return None
    added = cand.add(scorer, dist.astype(cand.ys.dtype), xs.astype(cand.px.dtype),
                     ys.astype(cand.py.dtype), (full, no_far, no_near, far_arc), colour_at=(xs, ys))
    return [base] + list(range(added, added + n - 2)) + [last]


def _rhythm_tops(scorer: RingScorer, candidates: dict, chains: dict, radius: float,
                 threshold: float, limit: float, height: int) -> None:
    """Tall chains that agree with a clear rhythm of their rims carried on, at that rhythm,
    to the furthest top further out that the rhythm still runs to (:func:`_rhythm_top`).
    The pile stays clear of the facing stack (:data:`FACING_TOUCH`)."""
    for (row, column), cand in candidates.items():
        chain, rival = chains[row, column]
        if len(chain) < RHYTHM_TOP_LEAST:
            continue
        reach = min(limit, _facing_end(candidates, chains, row, column, height)
                    - FACING_TOUCH * radius)
        top = _rhythm_top(scorer, cand, chain, row == "top", radius, threshold, reach)
        if top is not None:
            chains[row, column] = (top, rival)


def _rhythm_top(scorer: RingScorer, cand: _Candidates, chain: list[int], edge_up: bool,
                radius: float, threshold: float, reach: float) -> list[int] | None:
    """A tall pile whose chain stops short of its top, carried on to that top: ``chain`` (of
    at least :data:`RHYTHM_TOP_LEAST`) with more checkers, evenly spaced from its base to a
    candidate further out (added to ``cand``), or ``None``.

    Dark checkers on dark paint, seen at a slant, show faint crescents: the ring map may
    propose no candidate a step or two past some checker of the pile, and the chain stops
    there though its rims go on repeating.  When the chain's last checker does not show its
    whole rim (:data:`WHOLE_RIM`: a checker lies on it), its rims repeat clearly
    (:data:`PERIOD_CLEAR`) and its count agrees with their rhythm (:data:`PERIOD_WHOLE`), its
    top is the furthest candidate within ``reach`` that lies a whole number of those steps from
    the base (:data:`PERIOD_WHOLE`, fifteen checkers at most), has the base's colour
    (:data:`COLOUR_JUMP`) and shows a clear rim (the threshold's share all round, or but for
    the arc one neighbour hides), where the rhythm from the base to it is as clear and the
    same step (:data:`RHYTHM_TOP_STEP`), and every checker placed between shows at least
    :data:`MEMBER_FLOOR` of its rim (one in the middle down to :data:`BLURRED_FLOOR`, of the
    pile's paint, as in a whole-stack model: see :func:`_blurred_member`).
    """
    if len(chain) < RHYTHM_TOP_LEAST:
        return None
    order = sorted(chain, key=lambda i: float(cand.ys[i]))
    first, last = order[0], order[-1]
    if cand.full[last] >= WHOLE_RIM:
        return None  # nothing lies on it: the pile's top
    x = float(np.median(cand.px[order]))
    step, clear, lean = _chain_rhythm(scorer, cand, first, last, x, edge_up, radius)
    if step <= 0 or clear < PERIOD_CLEAR:
        return None
    if abs((float(cand.ys[last] - cand.ys[first]) - lean) / step + 1 - len(chain)) \
            > PERIOD_WHOLE:
        return None
    steps = (cand.ys - cand.ys[first] - np.float32(lean)) / np.float32(step)
    best_any = np.maximum(cand.full, np.maximum(cand.no_far, cand.no_near))
    fits = ((cand.ys > cand.ys[last] + np.float32(0.5 * step)) & (cand.ys <= reach)
            & (np.rint(steps) + 1 > len(chain)) & (steps <= 14 + PERIOD_WHOLE)
            & (np.abs(steps - np.rint(steps)) <= PERIOD_WHOLE) & (best_any >= threshold)
            & np.array(cand.close[first], bool))
    for top in sorted(np.flatnonzero(fits).tolist(), key=lambda i: -float(cand.ys[i])):
        n = int(np.rint(steps[top])) + 1
        further, further_clear = _rhythm(scorer, x, float(cand.py[first]),
                                         float(cand.py[top]), radius)
        if further_clear < PERIOD_CLEAR or abs(further - step) > RHYTHM_TOP_STEP * step:
            continue
        xs, ys, dist = (v[1:-1] for v in _pile_centres(cand, first, top, n, edge_up, radius))
        full, no_far, no_near, far_arc = scorer.coverage(xs, ys, edge_up)
        # (As in a whole-stack model, one crescent in the middle may be dimmed: see
        # BLURRED_LEAST.)
        placed = np.maximum(full, np.maximum(no_far, no_near))
        dimmed = _blurred_member(np.concatenate(([best_any[first]], placed, [best_any[top]])),
                                 True)
        if dimmed is None or not _of_its_stack(
                weighted(scorer.colour_at(np.concatenate(([cand.px[first]], xs)),
                                          np.concatenate(([cand.py[first]], ys)))), dimmed):
            continue
        base = cand.add(scorer, dist.astype(cand.ys.dtype), xs.astype(cand.px.dtype),
                        ys.astype(cand.py.dtype), (full, no_far, no_near, far_arc),
                        colour_at=(xs, ys))
        return [first] + list(range(base, base + n - 2)) + [top]
    return None


def _rhythm_end(cand: _Candidates, first: int, step: float, radius: float) -> int | None:
    """The furthest candidate of ``cand`` from the base ``first`` that may end a pile of at
    most fifteen checkers whose rims repeat every ``step`` pixels: within fourteen steps (and
    :data:`PERIOD_WHOLE`), a whole number of steps out (within :data:`PERIOD_WHOLE`), of the
    base's colour (:data:`COLOUR_JUMP`) and showing a clear rim of its own
    (:data:`COVERAGE_THRESHOLD` all round, or but for the arc one neighbour hides);
    ``None`` when none does (or it would leave a pile shorter than :data:`RECOUNT_LEAST`).

    >>> cand = _Candidates(np.float32([10, 25, 40, 220, 232]), np.zeros(5, np.float32),
    ...                    np.zeros(5, np.float32), np.float32([0.9, 0.7, 0.7, 0.75, 0.9]),
    ...                    np.float32([0.9, 0.9, 0.9, 0.9, 0.9]), np.float32([0.7] * 5),
    ...                    np.zeros((5, 3), np.float32), np.ones(5, np.float32))
    >>> _rhythm_end(cand, 0, 15.0, 11.0)  # 232 lies 14.8 steps out: a 16th checker
    3
    """
    steps = (cand.ys - cand.ys[first]) / np.float32(step)
    best_any = np.maximum(cand.full, np.maximum(cand.no_far, cand.no_near))
    fits = ((steps >= RECOUNT_LEAST - 1 - PERIOD_WHOLE) & (steps <= 14 + PERIOD_WHOLE)
            & (np.abs(steps - np.round(steps)) <= PERIOD_WHOLE)
            & (best_any >= COVERAGE_THRESHOLD)
            & np.array(cand.close[first], bool))
    if not fits.any():
        return None
    ends = np.flatnonzero(fits)
    return int(ends[np.argmax(cand.ys[ends])])


def _settle_lone(scorer: RingScorer, candidates: dict, chains: dict, centres: dict,
                 radius: float, threshold: float, limit: float, first_min: float,
                 height: int) -> None:
    """The last word on points read with one checker or none (see :func:`_lone_verdict`),
    once the facing stacks are settled: a lone reading against a facing stack's end needs its
    colour to differ from the point's paint; a point read empty takes a lone checker short of
    the threshold that has a colour of its own and a clear rim where an empty base shows none.

    A lone reading clear of the facing stack that has the point's paint, or one near it
    (glare's lift), must show its far rim as a step or a line (:func:`_paint_lone`).

    The point's paint is taken from the empty points of the same row that share its paint
    (every other point), at the same distance from the edge: the spot one diameter further
    along the point itself may lie under the facing stack.
    """
    # (Most points have nothing to settle: plain Python until one has; this runs on every read.)
    touch = FACING_TOUCH * radius
    most, least = _f32(LONE_MOST_RIM), _f32(OWN_LINE_RIM)
    reach, edge = _f32(FIRST_MAX * radius), _f32(LONE_EDGE_REACH * radius)
    empty = [key for key, (chain, _) in chains.items() if not chain]
    clear = []  # lone readings clear of the facing stack: (point, candidate, siblings)
    for (row, column), cand in candidates.items():
        chain, rival = chains[row, column]
        if len(chain) > 1:
            continue
        # A point read empty needs a candidate near the edge with most of a rim (or, for a
        # checker of its paint's groove alone, OWN_LINE_RIM of one).
        usual = bool(chain) or any(
            y <= reach and (f >= most or (f < threshold and y <= edge and n >= threshold))
            for f, y, n in zip(cand.full.tolist(), cand.ys.tolist(), cand.no_near.tolist()))
        if not usual and not any(y <= reach and f >= least
                                 for f, y in zip(cand.full.tolist(), cand.ys.tolist())):
            continue
        facing = _facing_end(candidates, chains, row, column, height)
        siblings = [(row, c) for c in range(column % 2, POINTS_PER_ROW, 2)
                    if c != column and (row, c) in empty]
        if chain and facing - float(cand.ys[chain[0]]) >= touch:
            if siblings:
                clear.append(((row, column), chain[0], siblings))
            continue
        verdict = _lone_verdict(scorer, cand, chain, row == "top", facing, siblings, centres,
                                radius, threshold, limit, first_min) if usual else None
        if verdict is None and not chain:
            verdict = _paint_rim_lone(scorer, cand, row == "top", facing, siblings, centres,
                                      radius, limit, first_min, (row, column))
        if verdict is not None:
            chains[row, column] = (verdict, rival)
    stacked = [candidates[key].colours[chain] for key, (chain, _) in chains.items()
               if len(chain) >= 2]
    for key in _paint_lone(scorer, candidates, clear, centres, radius,
                           np.concatenate(stacked) if stacked else None):
        chains[key] = ([], chains[key][1])
    for key in _dice_on_paint(scorer, candidates, chains, centres, radius):
        chains[key] = ([], chains[key][1])


def _dice_on_paint(scorer: RingScorer, candidates: dict, chains: dict, centres: dict,
                   radius: float) -> list[tuple[str, int]]:
    """The points read with a lone checker that are empty bases with a small die on them
    (:func:`_die_on_paint`), the point's paint taken as in :func:`_lone_verdict`: the median of
    the empty points of the same paint in its row, at the checker's distance from the edge;
    but not those whose far arc shows a checker's rim in every direction (see
    :data:`DIE_NOT_RIM`)."""
    readings = []  # (point, x, y, siblings)
    for (row, column), (chain, _) in chains.items():
        if len(chain) != 1:
            continue
        siblings = [(row, c) for c in range(column % 2, POINTS_PER_ROW, 2)
                    if c != column and not chains[row, c][0]]
        if siblings:
            cand = candidates[row, column]
            readings.append(((row, column), float(cand.px[chain[0]]), float(cand.py[chain[0]]),
                             siblings))
    if not readings:
        return []
    # (All the paint in one look-up; plain Python over a handful of colours.)
    xs = [centres[key] for _, _, _, siblings in readings for key in siblings]
    ys = [y for _, _, y, siblings in readings for _ in siblings]
    paint_all = scorer.colour_at(np.array(xs, np.float32), np.array(ys, np.float32)).tolist()
    dice, start = [], 0
    for point, x, y, siblings in readings:
        paint = [statistics.median(channel)
                 for channel in zip(*paint_all[start:start + len(siblings)])]
        start += len(siblings)
        if not _die_on_paint(scorer.lab, x, y, paint, radius):
            continue
        # A checker's rim runs along its whole far arc as a line (see DIE_NOT_RIM); a die
        # leaves the base's paint there.  (Looked at only here: few readings get this far.)
        lightness, edge_up = scorer.lab[:, :, 0], point[0] == "top"
        least_step, least_line = DIE_NOT_RIM
        steps = _far_steps(lightness, x, y, radius, edge_up)
        if (steps is None or float(steps.min()) < least_step
                or _far_rim_line(lightness, x, y, radius, edge_up) < least_line):
            dice.append(point)
    return dice


def _die_on_paint(lab: np.ndarray, x: float, y: float, paint: list[float], radius: float
                  ) -> bool:
    """Whether a lone checker read at (``x``, ``y``) on a Lab image (float32) is an empty
    base of the Lab colour ``paint`` with a small die on it (see :data:`DIE_ON_PAINT_REACH`):
    its middle mostly that paint, with one blob of something else the size of a die's face
    and a die's sharp detail.

    >>> def looks(field):
    ...     lab = cv2.cvtColor(field, cv2.COLOR_BGR2LAB).astype(np.float32)
    ...     return _die_on_paint(lab, 30.0, 30.0, lab[5, 5].tolist(), 11.0)
    >>> field = np.full((60, 60, 3), (40, 40, 150), np.uint8)  # red paint
    >>> _ = cv2.rectangle(field, (30, 26), (37, 33), (20, 20, 20), -1)  # a small black die
    >>> for pip in ((32, 28), (35, 31)):
    ...     _ = cv2.circle(field, pip, 1, (250, 250, 250), -1)
    >>> looks(field)
    True
    >>> _ = cv2.circle(field, (30, 30), 11, (200, 200, 200), -1)  # a white checker instead
    >>> looks(field)
    False
    >>> field[:] = (40, 40, 150)  # a checker of the paint with a smooth highlight
    >>> _ = cv2.circle(field, (33, 27), 4, (120, 130, 220), -1)
    >>> looks(cv2.GaussianBlur(field, (0, 0), 2.0))
    False
    """
    middle = _off_paint_middle(lab, x, y, paint, radius)
    if middle is None:
        return False
    patch, off, inside = middle
    off_count, inside_count = int(np.count_nonzero(off)), int(np.count_nonzero(inside))
    least = (DIE_LEAST * radius) ** 2
    if off_count < least or inside_count - off_count < DIE_PAINT_SHARE * inside_count:
        return False
    _, labels, stats, _ = cv2.connectedComponentsWithStats(off.view(np.uint8), connectivity=8)
    blob = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[blob, cv2.CC_STAT_AREA] < least:
        return False
    if max(stats[blob, cv2.CC_STAT_WIDTH], stats[blob, cv2.CC_STAT_HEIGHT]) > DIE_SPAN * radius:
        return False
    sharp = np.abs(cv2.Laplacian(np.ascontiguousarray(patch[:, :, 0]), cv2.CV_32F))
    return bool(np.median(sharp[labels == blob]) >= DIE_SHARP)


def _off_paint_middle(lab: np.ndarray, x: float, y: float, paint: list[float], radius: float
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The middle of a reading at (``x``, ``y``) on a Lab image (float32), within
    :data:`DIE_ON_PAINT_REACH` radii: its square patch of the image, which of its pixels lie
    off the Lab colour ``paint`` (:data:`OFF_PAINT` or more, weighted Lab) inside that disc, and
    the disc; None where the disc runs off the image."""
    reach = DIE_ON_PAINT_REACH * radius
    k = int(math.ceil(reach))
    xi, yi = int(round(x)), int(round(y))
    if xi - k < 0 or yi - k < 0 or xi + k >= lab.shape[1] or yi + k >= lab.shape[0]:
        return None
    patch = lab[yi - k:yi + k + 1, xi - k:xi + k + 1]
    # Squared weighted (calibration.colours.weighted) distance to the paint, per pixel.
    diff = patch - np.array(paint, np.float32)
    distance2 = cv2.transform(cv2.multiply(diff, diff), _SQUARED_WEIGHTS)
    inside = _disc_mask(k, reach)
    return patch, (distance2 >= OFF_PAINT * OFF_PAINT) & inside, inside


def _one_face_near_paint(scorer: RingScorer, cand: _Candidates, j: int,
                         siblings: list[tuple[str, int]], centres: dict, radius: float) -> bool:
    """Whether candidate ``j``, a reading near its point's paint but not of it, shows one face
    a little off that paint rather than the paint with something small on it (see
    :data:`LONE_OWN_LINE`): no blob of its middle lies off the paint (the median of its bare
    ``siblings`` at its height; :func:`_off_paint_middle`) over a die's face
    (:data:`DIE_LEAST` radii square).

    >>> field = np.full((60, 100, 3), (40, 40, 150), np.uint8)           # red paint
    >>> _ = cv2.circle(field, (30, 30), 11, (40, 40, 125), -1)           # a darker red checker
    >>> _ = cv2.rectangle(field, (70, 30), (78, 38), (20, 20, 20), -1)   # a black die on a base
    >>> scorer = RingScorer(field, radius=11.0)
    >>> xs, ys = np.float32([30, 70]), np.float32([30, 30])
    >>> cand = _Candidates(ys=ys, px=xs, py=ys, full=ys, no_far=ys, no_near=ys,
    ...                    colours=scorer.colour_at(xs, ys), far_arc=ys)
    >>> centres = {("top", 0): 30.0, ("top", 2): 70.0, ("top", 4): 50.0}
    >>> [_one_face_near_paint(scorer, cand, j, [("top", 4)], centres, 11.0) for j in (0, 1)]
    [True, False]
    """
    y = float(cand.py[j])
    paint = np.median(scorer.colour_at(np.array([centres[key] for key in siblings], np.float32),
                                       np.full(len(siblings), y, np.float32)), axis=0)
    middle = _off_paint_middle(scorer.lab, float(cand.px[j]), y, paint.tolist(), radius)
    if middle is None:
        return True
    off = middle[1]
    if np.count_nonzero(off) < (DIE_LEAST * radius) ** 2:
        return True
    _, _, stats, _ = cv2.connectedComponentsWithStats(off.view(np.uint8), connectivity=8)
    return bool(stats[1:, cv2.CC_STAT_AREA].max() < (DIE_LEAST * radius) ** 2)


@functools.lru_cache(maxsize=8)
def _disc_mask(half: int, reach: float) -> np.ndarray:
    """Which pixels of a square ``2 * half + 1`` wide lie within ``reach`` of its middle
    (made once per radius; read only).

    >>> _disc_mask(1, 1.0).astype(int).tolist()
    [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    """
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1]
    mask = xx * xx + yy * yy <= reach * reach
    mask.flags.writeable = False
    return mask


def _paint_gap(scorer: RingScorer, cand: _Candidates, j: int, siblings: list[tuple[str, int]],
               centres: dict, along: bool = False) -> float:
    """Colour distance (lightness-weighted Lab) between candidate ``j``'s middle and the
    point's paint beside it: the median of the empty points of the same paint (``siblings``)
    at the candidate's distance from the edge; ``along``: that paint fitted as a straight line
    along the row (in x) through two siblings or more, at the candidate's x, which follows light
    falling off from one end of the board to the other.

    A paint lit more toward the right, a reading of that very paint at x 180 and the empty
    points of that paint at x 20, 60 and 100: the median is the paint at x 60, far darker.

    >>> lab = np.full((40, 200, 3), 128, np.uint8)
    >>> lab[..., 0] = np.linspace(150, 250, 200).astype(np.uint8)[None, :]
    >>> scorer = RingScorer(cv2.cvtColor(lab, cv2.COLOR_LAB2BGR), radius=8.0)
    >>> one = np.ones(1, np.float32)
    >>> cand = _Candidates(ys=one * 20, px=one * 180, py=one * 20, full=one, no_far=one,
    ...                    no_near=one, colours=scorer.colour_at(one * 180, one * 20), far_arc=one)
    >>> centres = {("top", 0): 20.0, ("top", 2): 60.0, ("top", 4): 100.0}
    >>> _paint_gap(scorer, cand, 0, list(centres), centres) > SAME_PAINT
    True
    >>> _paint_gap(scorer, cand, 0, list(centres), centres, along=True) < 2
    True
    """
    y = np.full(len(siblings), cand.py[j], np.float32)
    xs = np.array([centres[key] for key in siblings], np.float32)
    paint = weighted(scorer.colour_at(xs, y))
    if along and len(siblings) >= 2:
        slope, offset = np.polyfit(xs.astype(np.float64), paint.astype(np.float64), 1)
        reference = slope * float(cand.px[j]) + offset
    else:
        reference = np.median(paint, axis=0)
    return float(np.sqrt(((weighted(cand.colours[j:j + 1])[0] - reference) ** 2).sum()))


def _paint_lone(scorer: RingScorer, candidates: dict,
                readings: list[tuple[tuple[str, int], int, list[tuple[str, int]]]],
                centres: dict, radius: float, stacked: np.ndarray | None = None
                ) -> list[tuple[str, int]]:
    """The points among ``readings`` (point, its lone checker's candidate index, the empty
    points of the same paint in its row), each read with a lone checker clear of the facing
    stack, that are empty bases: the checker's middle has the point's paint (:func:`_paint_gap`
    below :data:`SAME_PAINT`; here for all of them in one look-up) and its far arc shows no rim
    standing above the paint's own change there (:func:`_far_step` below
    :data:`LONE_RIM_STEP`).  Glare or shading across a base makes its paint there differ from
    the paint further along the point (which lets the far arc off its test, see
    :data:`LONE_FAR_ARC`) and rings on that arc, but changes evenly along the axis.

    Glare or a shade may also lift a base's middle a little off the paint (:func:`_paint_gap`
    from :data:`SAME_PAINT` up to :data:`OFF_PAINT`), where it passes for a checker of a colour
    of its own: such a reading is an empty base too when its far arc shows neither that step
    nor a rim line beyond the lightness of both its sides (:func:`_far_rim_line` below
    :data:`LONE_RIM_LINE`); glare's edge is a ramp, and a checker of a colour near the paint's
    shows one or the other.  Synthetic hard seeds 0-2999 (corners given) and the real photos
    under every transform, lone readings so near the paint: the glare-lit bases step 0.8 to
    1.8 with lines of -10 to -1.9; the checkers step at least 2.1 or, where less (one, 1.6),
    show a line of 9.

    A reading of the paint's very colour must step in lightness (a rim is a bevel's shading, a
    groove's shadow: a dark paint's chroma changes in blotches of a rim's size), and the step
    must be no ramp (see :data:`LONE_RAMP_SHORT`) and show in its colour too (see
    :data:`LONE_COLOUR_STEP`); one too faint to step is a checker when its
    rim shows as a line beyond both its sides (:func:`_far_rim_line` at least
    :data:`LONE_RIM_LINE`: seed 3045, a red checker on a red point, 2.4; the bare bases that
    step less, -10 to -1.9).  Glare may lift a dark base far off its
    paint (a navy base to grey): a reading off the paint whose colour is the paint with white
    light added (:func:`_lit_paint`) must show the step or the line as one near it must,
    unless it has the colour of a checker on a stack of two or more (``stacked``, Lab; closer
    than :data:`SAME_PAINT`): those are players' colours, and looking no further keeps a white
    checker on dark paint, which glare could also make, cheap.  Synthetic hard seeds 0-3999 and
    the real photos under every transform: the 2417 lone checkers lit paint could make (white
    ones on dark paint, mostly) step 5.3 or more; real fm-gold-a's glare-lit navy base under
    the lower right glare spot, 0.44 with a line of -12.7.

    A reading of a colour of its own is a checker only where its far arc steps in colour
    (:data:`OWN_COLOUR_STEP`): its face meets the paint at its rim.
    """
    if not readings:
        return []
    # (Plain Python over a handful of colours: numpy's per-call overhead would be most of it.)
    xs = [centres[key] for _, _, siblings in readings for key in siblings]
    ys = [float(candidates[point].py[j]) for point, j, siblings in readings for _ in siblings]
    colours = np.concatenate([scorer.colour_at(np.array(xs, np.float32),
                                               np.array(ys, np.float32)),
                              [candidates[point].colours[j] for point, j, _ in readings]])
    weighted_all = weighted(colours).tolist()
    own = weighted_all[len(xs):]
    # Which readings have the colour of a checker on a stack (all of them in one look-up).
    of_players = ((nearest_distance(np.array(own, np.float32), weighted(stacked)) < SAME_PAINT)
                  .tolist() if stacked is not None and len(stacked) else [False] * len(own))
    empty, start = [], 0
    for (point, j, siblings), colour, of_player in zip(readings, own, of_players):
        paint = weighted_all[start:start + len(siblings)]
        start += len(siblings)
        gap = math.sqrt(sum((c - statistics.median(channel)) ** 2
                            for c, channel in zip(colour, zip(*paint))))
        cand = candidates[point]
        if gap >= OFF_PAINT and of_player:
            continue  # a player's colour
        own_colour = gap >= OFF_PAINT and not _lit_paint(
            cand.colours[j], colours[start - len(siblings):start], colour[0],
            statistics.median(p[0] for p in paint))
        sampled = _far_samples(scorer.lab, float(cand.px[j]), float(cand.py[j]), radius,
                               point[0] == "top")
        if own_colour:
            # A colour of its own, but a checker's face meets the paint at its rim: glare
            # washing a base off its paint shows no step there (see OWN_COLOUR_STEP).
            if sampled is not None and _sampled_step(sampled, radius) < OWN_COLOUR_STEP:
                empty.append(point)
            continue
        if sampled is None:  # (no far arc in the image: no rim there)
            empty.append(point)
            continue
        line = _sampled_rim_line(sampled, radius)
        if gap < SAME_PAINT:
            # The point's own paint: its rim must step in lightness and be no ramp, or, too
            # faint to step, show as a line (a bevel, a groove, a dark rim) beyond both sides.
            step = _sampled_step(sampled, radius, lightness=True)
            if step >= LONE_RIM_STEP:
                bare = (-line >= LONE_RAMP_SHORT * step * radius
                        or _sampled_step(sampled, radius) < LONE_COLOUR_STEP * step)
            else:
                bare = line < LONE_RIM_LINE
            if bare:
                empty.append(point)
            continue
        # Near the paint but not of it (or the paint lit by glare): glare or shade lifting a
        # base's colour, or a checker of a colour close to the paint's whose rim is a line (a
        # bevel, a groove) rather than a step from face to paint.
        if _sampled_step(sampled, radius) < LONE_RIM_STEP and line < LONE_RIM_LINE:
            empty.append(point)
    return empty


def _lit_paint(colour: np.ndarray, paints: np.ndarray, lightness: float,
               paint_lightness: float) -> bool:
    """Whether a lone reading's Lab ``colour`` is its point's paint lit by glare: within
    :data:`SAME_PAINT` of the median of ``paints`` (Lab, the empty points of the same paint)
    with white light added in linear light (:func:`calibration.colours.lit_distance`).  Glare
    only lightens: a reading no lighter than the paint (``lightness`` against
    ``paint_lightness``, in any one scale) is not looked at further.

    >>> navy = np.float32([[27, 129, 125], [26, 130, 125], [28, 129, 126]])
    >>> _lit_paint(np.float32([71, 129, 127]), navy, 71, 27)
    True
    >>> _lit_paint(np.float32([120, 180, 160]), navy, 120, 27)   # a red checker
    False

    Glare may turn a dark paint white, so a white checker there passes too: its rim, a
    clear step from white to the paint, tells it (see :func:`_paint_lone`).

    >>> _lit_paint(np.float32([225, 128, 131]), navy, 225, 27)
    True
    """
    if lightness <= paint_lightness:
        return False
    return lit_distance(colour, np.median(paints, axis=0)) < SAME_PAINT


def _lone_verdict(scorer: RingScorer, cand: _Candidates, chain: list[int], edge_up: bool,
                  facing: float, siblings: list[tuple[str, int]], centres: dict,
                  radius: float, threshold: float, limit: float, first_min: float
                  ) -> list[int] | None:
    """A new reading for a point read with one checker or none, or ``None`` to keep it.

    ``facing``: distance from this point's edge of the facing stack's nearest checker (inf when
    none).  Where that checker lies within :data:`FACING_TOUCH` radii beyond a candidate, the
    candidate's far arc may be that checker's rim, so it tells nothing: a lone checker there
    must differ in colour from the point's paint (sampled on ``siblings``, empty points of the
    same paint, at the candidate's distance from the edge).  A point read empty takes the best
    candidate near its edge with most of a rim (:data:`LONE_MOST_RIM`, or all but a near arc
    on the edge, :data:`LONE_EDGE_REACH`) that differs from that paint and shows a clear rim on
    its far arc (:data:`LONE_RIM_CLEAR`); an empty base shows its paint inside and no rim there, and a die
    lying beyond it, which may put a straight edge on the far arc, leaves the paint inside.
    """
    if not siblings:
        return None

    def own_colour(j: int) -> bool:
        """Whether candidate ``j``'s middle differs from the point's paint beside it."""
        return _paint_gap(scorer, cand, j, siblings, centres) >= SAME_PAINT

    if chain:
        if facing - float(cand.ys[chain[0]]) >= FACING_TOUCH * radius:
            return None
        # Nothing but its colour tells such a reading from a bare base: it must differ from
        # the paint as the light leaves it along the row too (held seeds 5044, 5261: white
        # bases, lit unlike their siblings across the board, read as white and blue checkers).
        return None if own_colour(chain[0]) and _paint_gap(
            scorer, cand, chain[0], siblings, centres, along=True) >= SAME_PAINT else []
    near = ((cand.ys >= first_min * radius) & (cand.ys <= FIRST_MAX * radius)
            & (cand.ys <= limit) & (cand.ys < facing - FACING_TOUCH * radius)
            & (cand.full < threshold) & (cand.far_arc >= LONE_FAR_ARC)
            & ((cand.full >= LONE_MOST_RIM)
               | ((cand.ys <= LONE_EDGE_REACH * radius) & (cand.no_near >= threshold))))
    for j in np.nonzero(near)[0][np.argsort(-cand.full[near])].tolist():
        if own_colour(j) and _far_rim(scorer.lab, float(cand.px[j]), float(cand.py[j]), radius,
                                      edge_up) >= LONE_RIM_CLEAR:
            return [j]
    return None


def _paint_rim_lone(scorer: RingScorer, cand: _Candidates, edge_up: bool, facing: float,
                    siblings: list[tuple[str, int]], centres: dict, radius: float, limit: float,
                    first_min: float, point: tuple[str, int] | None = None
                    ) -> list[int] | None:
    """A lone checker of its point's own paint for a point read empty, or ``None``.

    Such a checker shows a faint rim: short of :data:`COVERAGE_THRESHOLD` all round, or short
    of :data:`LONE_FAR_ARC` on the arc toward the point's tip, where an empty base shows its
    paint.  The best candidate near the edge (clear of the facing stack, see
    :func:`_lone_verdict`) with most of a rim (:data:`LONE_MOST_RIM`) and the point's paint
    (:func:`_paint_gap` below :data:`SAME_PAINT`; one of a colour of its own is
    :func:`_lone_verdict`'s) is taken when its far arc shows a rim in lightness as a step in
    each direction (:func:`_far_step`) and at one distance in all of them
    (:func:`_far_circle_step`), both at least :data:`LONE_RIM_STEP`, the latter keeping at
    least :data:`LONE_CIRCLE_SHARE` of the former, and as a line beyond the lightness of both
    its sides (:func:`_far_rim_line`, at least :data:`LONE_RIM_LINE`): glare or shading across a
    base is a ramp from one level to another, and a paint's texture or a die's straight side
    beyond the base changes at a different distance in each direction (or in a few of them
    only).  It is also taken, with the point's paint or one near it (below :data:`OFF_PAINT`),
    when every direction of its far arc steps by :data:`LONE_RIM_STEP` and its lightness
    there is no ramp (see :data:`RIM_NOT_RAMP`); or, with the point's paint, when its far arc
    shows a line at least :data:`LONE_OWN_LINE` beyond both its levels that the bare points of
    the same paint (``siblings``, sampled beside their axes as the candidate lies beside
    ``point``'s) do not show, so also with a colour near the paint (below :data:`OFF_PAINT`)
    when its middle shows one face (:func:`_one_face_near_paint`).
    Like every lone reading of its point's paint, it must also step in colour
    (:func:`_paint_lone`).  One with (or near) its point's paint and a rim fainter still (less
    of it all round, down to :data:`OWN_LINE_RIM`, or a step on less than most of its far arc)
    is taken on that line alone, when it and the line beyond the siblings' both reach
    :data:`OWN_LINE_FAINT`.
    """
    if not siblings:
        return None
    near = ((cand.ys >= first_min * radius) & (cand.ys <= FIRST_MAX * radius)
            & (cand.ys <= limit) & (cand.ys < facing - FACING_TOUCH * radius)
            & (cand.full >= OWN_LINE_RIM))
    # A rim is a change of lightness (a bevel's shading, a groove's shadow); the chroma of a
    # dark paint is mostly the camera's noise, and changes in blotches of a rim's size.
    lightness = scorer.lab[:, :, 0]
    for j in np.nonzero(near)[0][np.argsort(-cand.full[near], kind="stable")].tolist():
        x, y = float(cand.px[j]), float(cand.py[j])
        if float(cand.full[j]) < LONE_MOST_RIM:
            # (Most bare bases ring this much: the one cue left, the clear line, first.)
            if _faint_own_line(scorer, cand, j, edge_up, siblings, centres, radius, point):
                return [j]
            continue
        gap = _paint_gap(scorer, cand, j, siblings, centres)
        if gap >= OFF_PAINT:
            continue
        steps = _far_steps(lightness, x, y, radius, edge_up)
        if steps is None:
            continue
        if float(np.median(steps)) < LONE_RIM_STEP:
            if _faint_own_line(scorer, cand, j, edge_up, siblings, centres, radius, point):
                return [j]
            continue
        line = _far_rim_line(lightness, x, y, radius, edge_up)
        if float(steps.min()) >= LONE_RIM_STEP:  # a rim all along the arc (RIM_NOT_RAMP)
            rim = line >= RIM_NOT_RAMP
        else:
            # The averaged step is asked of the paint's own colour only; the line its bare
            # siblings lack of one near it too (see LONE_OWN_LINE).
            circle = (_far_circle_step(lightness, x, y, radius, edge_up) if gap < SAME_PAINT
                      else 0.0)
            rim = (circle >= LONE_RIM_STEP and circle >= LONE_CIRCLE_SHARE * float(np.median(steps))
                   and line >= LONE_RIM_LINE)
            clear_line = LONE_OWN_LINE if gap < SAME_PAINT else NEAR_PAINT_LINE
            if not rim and line >= clear_line:   # (see LONE_OWN_LINE, NEAR_PAINT_LINE)
                offset = x - (centres[point] if point is not None else x)
                if (_line_siblings_lack(lightness, x, y, radius, edge_up,
                                        [centres[key] + offset for key in siblings])
                        >= clear_line and _steps_in_colour(scorer, x, y, radius, edge_up)
                        and (gap < SAME_PAINT or _one_face_near_paint(scorer, cand, j, siblings,
                                                                      centres, radius))):
                    return [j]
            if gap >= SAME_PAINT:
                continue
        # And the step in colour that every lone reading of its point's paint must show
        # (_paint_lone, which sees the readings made before this one).
        if rim and _far_step(scorer.lab, x, y, radius, edge_up) >= LONE_RIM_STEP:
            return [j]
    return None


def _faint_own_line(scorer: RingScorer, cand: _Candidates, j: int, edge_up: bool,
                    siblings: list[tuple[str, int]], centres: dict, radius: float,
                    point: tuple[str, int] | None) -> bool:
    """Whether candidate ``j``, a lone reading whose rim is too faint for
    :func:`_paint_rim_lone`'s other tests, is a checker of its point's paint by its groove alone
    (see :data:`OWN_LINE_RIM`): a far-arc line (:func:`_far_rim_line`) of at least
    :data:`OWN_LINE_FAINT`, a middle of the point's paint or near it and of one face
    (:func:`_paint_gap` below :data:`OFF_PAINT`, :func:`_one_face_near_paint`; see
    :data:`LONE_OWN_LINE`), the line beyond its bare ``siblings``'
    (:func:`_sibling_rim_line`, as :func:`_paint_rim_lone` samples them) as clear, and, where
    its lightness steps by :data:`LONE_RIM_STEP` or more, a step in colour of
    :data:`LONE_COLOUR_STEP` of that."""
    lightness = scorer.lab[:, :, 0]
    x, y = float(cand.px[j]), float(cand.py[j])
    line = _far_rim_line(lightness, x, y, radius, edge_up)
    if line < min(OWN_LINE_FAINT, NEAR_PAINT_LINE):
        return False
    gap = _paint_gap(scorer, cand, j, siblings, centres)
    if gap >= OFF_PAINT:
        return False
    clear_line = OWN_LINE_FAINT if gap < SAME_PAINT else NEAR_PAINT_LINE
    offset = x - (centres[point] if point is not None else x)
    if line < clear_line or _line_siblings_lack(
            lightness, x, y, radius, edge_up,
            [centres[key] + offset for key in siblings]) < clear_line:
        return False
    return _steps_in_colour(scorer, x, y, radius, edge_up) and (
        gap < SAME_PAINT or _one_face_near_paint(scorer, cand, j, siblings, centres, radius))


def _steps_in_colour(scorer: RingScorer, x: float, y: float, radius: float, edge_up: bool
                     ) -> bool:
    """Whether the far arc at (``x``, ``y``) steps in colour (:func:`_far_step` of Lab) by at
    least :data:`LONE_COLOUR_STEP` of its step in lightness where that step reaches
    :data:`LONE_RIM_STEP` (see :func:`_paint_lone`): a rim changes the colour where it changes
    the lightness; glare across a coloured paint washes the colour out along the whole ray."""
    step = _far_step(scorer.lab[:, :, 0], x, y, radius, edge_up)
    return step < LONE_RIM_STEP or (_far_step(scorer.lab, x, y, radius, edge_up)
                                    >= LONE_COLOUR_STEP * step)


def _paint_stack_ends(scorer: RingScorer, candidates: dict, chains: dict, radius: float,
                      threshold: float, limit: float, first_min: float, height: int) -> None:
    """Small stacks whose last checker has a faint rim, read one short, take it (see
    :data:`PAINT_END_MOST`).

    Two cases, each a stack's next checker one stack step beyond its last (or beyond the best
    candidate near the edge of a point read empty), of that checker's colour, clear of the
    facing stack, whose far arc shows a rim in lightness (:func:`_far_step` and
    :func:`_far_axis_circle_step`, at least :data:`LONE_RIM_STEP`):

    - a pair of its point's own paint: the first checker's far arc is short of
      :data:`LONE_FAR_ARC` while its middle has the colour found one diameter further (where
      the second lies; :class:`_Candidates` ``far_arc``), so it was read alone or, when its
      rim is whole (:data:`COVERAGE_THRESHOLD`), not at all.  The second shows its rim but on
      its near arc, hidden by the first's (``no_near`` at least :data:`MEMBER_FLOOR`).
    - a stack's last checker on paint of its colour, its rim just short of
      :data:`COVERAGE_THRESHOLD` (at least :data:`LONE_MOST_RIM`): its far arc must also show
      the rim as a line beyond the lightness of both its sides (:func:`_far_rim_line`, at least
      :data:`LONE_RIM_LINE`), where the paint's own shading toward the tip is a ramp, or step
      clearly (:data:`PAINT_END_CLEAR_STEP`), where blur leaves no line.
    """
    # (Few points qualify: plain Python until one does; this runs on every read.)
    most_rim, clear_rim, reach = _f32(LONE_MOST_RIM), _f32(PAINT_END_CLEAR_RIM), FIRST_MAX * radius
    for (row, column), cand in candidates.items():
        chain, rival = chains[row, column]
        if len(chain) > PAINT_END_MOST:
            continue
        ys, full = cand.ys.tolist(), cand.full.tolist()
        if chain:
            last = chain[-1]
        else:
            near = [j for j, y in enumerate(ys)
                    if first_min * radius <= y <= reach and full[j] >= _f32(threshold)]
            if not near:
                continue
            last = max(near, key=lambda j: full[j])
        facing = _facing_end(candidates, chains, row, column, height)
        pair = len(chain) <= 1 and float(cand.far_arc[last]) < _f32(LONE_FAR_ARC)
        if not chain and not pair:
            continue
        edge_up, lightness = row == "top", scorer.lab[:, :, 0]
        beyond = [k for k in _one_step_on(ys, [last], radius, limit)
                  if ys[k] < facing - FACING_TOUCH * radius]
        for k in sorted(beyond, key=lambda k: -full[k]):
            paired = pair and float(cand.no_near[k]) >= _f32(MEMBER_FLOOR)
            faint_end = bool(chain) and clear_rim <= full[k] < _f32(threshold)
            if not (paired or faint_end) or cand.distances[last][k] >= SAME_PAINT:
                continue
            x, y = float(cand.px[k]), float(cand.py[k])
            # (The circle's step is asked for only when the plain one passes: most fail it.)
            far_step = _far_step(lightness, x, y, radius, edge_up)
            if far_step < LONE_RIM_STEP:
                continue
            far_step = min(far_step, _far_axis_circle_step(lightness, x, y, radius, edge_up))
            if far_step < LONE_RIM_STEP:
                continue
            if (paired or far_step >= PAINT_END_CLEAR_STEP
                    or full[k] >= most_rim
                    and _far_rim_line(lightness, x, y, radius, edge_up) >= LONE_RIM_LINE):
                chains[row, column] = ((chain or [last]) + [k], rival)
                break


def _faint_ends_off_paint(scorer: RingScorer, candidates: dict, chains: dict, centres: dict,
                          radius: float, threshold: float, limit: float, height: int) -> None:
    """Small stacks (at most :data:`PAINT_END_MOST`) whose next checker's rim falls just short
    of ``threshold`` take it when its colour is off its point's paint: a checker's rim there
    steps clearly against the paint all along its far arc, where a neighbouring point's
    checker touching its side, or blur, left gaps in its ring.

    The candidate one stack step beyond the last checker (:data:`PAINT_END_STEPS`, evenly
    spaced after the steps before), clear of the facing stack, must be of that checker's colour
    (closer than :data:`SAME_PAINT`), show most of its rim (:data:`LONE_MOST_RIM`) and its far
    arc (:data:`LONE_FAR_ARC`), lie :data:`OFF_PAINT` or more from the paint of the bare points
    of its point's paint at its height (:func:`_paint_gap`), and its far arc must step in
    lightness at its rim in every direction (:func:`_far_steps`, each at least
    :data:`LONE_RIM_STEP`).

    Flat synthetic seeds 5000-6999 and 7044 (corners given): of the candidates of a small
    stack's colour one step beyond it with 0.75-0.81 of their rims, the checkers read short
    (5677 bottom[4], 7044 top[8], red on dark and light paint) lie 76-89 off the paint and step
    8.0-12.5 at least; another checker taken so, read right by the earlier stages, 97.5 and
    3.8 (5338); the two that are no checkers 1.9 off the paint, stepping 1.4 at least (5963,
    the bare point beyond a black checker on black), and 58 stepping 0.9 with 0.44 of its far
    arc (5792, beyond a tall pile's end).
    """
    # (Few points qualify: plain Python until one does; this runs on every read.)
    most_rim, clear, far_level = _f32(LONE_MOST_RIM), _f32(threshold), _f32(LONE_FAR_ARC)
    lightness = None
    for (row, column), cand in candidates.items():
        chain, rival = chains[row, column]
        if not chain or len(chain) > PAINT_END_MOST:
            continue
        ys, full, last = cand.ys.tolist(), cand.full.tolist(), chain[-1]
        beyond = [k for k in _one_step_on(ys, chain, radius, limit)
                  if most_rim <= full[k] < clear and float(cand.far_arc[k]) >= far_level
                  and cand.distances[last][k] < SAME_PAINT]
        if not beyond:
            continue
        facing = _facing_end(candidates, chains, row, column, height)
        siblings = [(row, c) for c in range(column % 2, POINTS_PER_ROW, 2)
                    if c != column and not chains[row, c][0]]
        if not siblings:
            continue
        if lightness is None:
            lightness = scorer.lab[:, :, 0]
        for k in sorted(beyond, key=lambda k: -full[k]):
            if ys[k] >= facing - FACING_TOUCH * radius:
                continue
            if _paint_gap(scorer, cand, k, siblings, centres) < OFF_PAINT:
                continue
            steps = _far_steps(lightness, float(cand.px[k]), float(cand.py[k]), radius,
                               row == "top")
            if steps is not None and float(steps.min()) >= LONE_RIM_STEP:
                chains[row, column] = (chain + [k], rival)
                break


def _lit_stack_ends(candidates: dict, chains: dict, radius: float, limit: float,
                    height: int) -> None:
    """Small stacks (at most :data:`FLAT_MOST`) whose next checker glare lights take it and
    the ones after it (see :data:`LIT_END_JUMP`): one at a time, evenly spaced, clear of the
    facing stack, each showing its whole rim (:data:`WHOLE_RIM`) and its far arc
    (:data:`LONE_FAR_ARC`), each of the stack's paint lit by white light (closer than
    :data:`LIT_END_JUMP`, :func:`calibration.colours.lit_distance`, to the median colour of
    the stack as found) short of :data:`LIGHT_END`, the first of them too far in colour from
    the stack's end for one stack (:data:`COLOUR_JUMP`), which is why the chain stopped there.

    >>> ys = np.float32([11, 34, 57])
    >>> colours = np.float32([[40, 128, 128], [40, 128, 128], [135, 128, 128]])
    >>> one = np.ones(3, np.float32)
    >>> cand = _Candidates(ys, ys * 0, ys * 0, one, one, one, colours, one)
    >>> chains = {("top", 0): ([0, 1], 0.0), ("bottom", 0): ([], 0.0)}
    >>> _lit_stack_ends({("top", 0): cand, ("bottom", 0): cand}, chains, 11.5, 300.0, 320)
    >>> chains[("top", 0)][0]   # black, black, then black greyed by glare
    [0, 1, 2]
    >>> cand.colours[2] = [140, 170, 160]   # a red one is no lit black
    >>> chains = {("top", 0): ([0, 1], 0.0), ("bottom", 0): ([], 0.0)}
    >>> _lit_stack_ends({("top", 0): cand, ("bottom", 0): cand}, chains, 11.5, 300.0, 320)
    >>> chains[("top", 0)][0]
    [0, 1]
    """
    # (Few stacks have a whole rim beyond their end that far in colour: plain Python until
    # one does; this runs on every read.)
    whole, far_level = _f32(WHOLE_RIM), _f32(LONE_FAR_ARC)
    for (row, column), cand in candidates.items():
        chain, rival = chains[row, column]
        if not chain or len(chain) > FLAT_MOST:
            continue
        ys, full, far = cand.ys.tolist(), cand.full.tolist(), cand.far_arc.tolist()
        last = chain[-1]
        jumped = [k for k in _one_step_on(ys, chain, radius, limit)
                  if full[k] >= whole and cand.distances[last][k] >= COLOUR_JUMP]
        if not jumped:
            continue
        facing = _facing_end(candidates, chains, row, column, height)
        paint = np.median(cand.colours[chain], axis=0)
        grown = list(chain)
        while len(grown) <= FLAT_MOST:
            last = grown[-1]
            beyond = [k for k in _one_step_on(ys, grown, radius, limit)
                      if ys[k] < facing - FACING_TOUCH * radius and full[k] >= whole
                      and far[k] >= far_level
                      and (len(grown) > len(chain) or cand.distances[last][k] >= COLOUR_JUMP)]
            lit = [k for k in beyond if float(cand.colours[k][0]) < LIGHT_END
                   and lit_distance(cand.colours[k], paint) < LIT_END_JUMP]
            if not lit:
                break
            grown.append(max(lit, key=lambda k: full[k]))
        if len(grown) > len(chain):
            chains[row, column] = (grown, rival)


def _without_dice(scorer: RingScorer, candidates: dict, chains: dict, radius: float) -> None:
    """Drop each point's far-end checker that is a die rather than a checker (:func:`_die_like`,
    all such ends in one look).

    Only a far end can be a die: a lone checker, or a stack's last checker clear of the one
    before (centres at least :data:`OVERLAP_BELOW` radii apart).  A checker lies on or against
    each of a stack's other checkers, and a die lies flat on the board, so an end overlapping
    the checker before it lies on that checker and is one.
    """
    clear = OVERLAP_BELOW * radius
    ends = [(key, chain[-1]) for key, (chain, _) in chains.items() if chain
            and (len(chain) == 1 or float(candidates[key].ys[chain[-1]]
                                          - candidates[key].ys[chain[-2]]) >= clear)]
    if not ends:
        return
    xs = np.array([candidates[key].px[j] for key, j in ends], np.float32)
    ys = np.array([candidates[key].py[j] for key, j in ends], np.float32)
    for (key, _), die in zip(ends, _die_like(scorer, xs, ys, radius).tolist()):
        if die:
            chain, rival = chains[key]
            chains[key] = (chain[:-1], rival)


@functools.lru_cache(maxsize=16)
def _die_window(radius: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_die_like`'s square window around a centre, made once per radius: the offsets
    (pixels) of its rows and columns from the centre, and which of its pixels (row by row)
    lie inside :data:`DIE_INSIDE` radii of the centre (1, else 0).

    >>> offsets, inside = _die_window(4.0)
    >>> offsets.tolist(), float(inside.sum())
    ([-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5], 29.0)
    """
    reach = int(np.ceil(DIE_INSIDE * radius)) + DIE_SMOOTH // 2 + 1
    offsets = np.arange(-reach, reach + 1, dtype=np.intp)
    inside = (np.hypot(offsets[:, None], offsets[None, :]) <= DIE_INSIDE * radius
              ).ravel().astype(np.float32)
    offsets.flags.writeable = inside.flags.writeable = False
    return offsets, inside


def _die_like(scorer: RingScorer, xs: np.ndarray, ys: np.ndarray, radius: float) -> np.ndarray:
    """Per centre (``xs``, ``ys``: 1-D arrays, image pixels), whether what rings there is a
    die's square, smaller than a checker, rather than a checker's disc (see
    :data:`DIE_SQUARE`).

    Inside :data:`DIE_INSIDE` radii of the centre, the scorer's doubled-angle gradient
    vectors (:class:`vision.rings.RingScorer`: ``a + ib = s e^(2i phi)``, ``s`` the edge
    strength relative to its neighbourhood's, at most 1) averaged over
    :data:`DIE_SMOOTH` pixels square, so that only edges straight over that length keep their
    strength (a die's sides, not its round pips); then their mean strength (how much of the
    inside is edge) and, weighted by the strength squared, the twofold coherence of their
    orientations (one family) and the fourfold (two perpendicular ones).  All centres in one
    gather per map; the maps are the scorer's own (nothing made again per frame).

    >>> field = np.full((80, 160, 3), 120, np.uint8)
    >>> _ = cv2.circle(field, (40, 40), 12, (230, 230, 230), -1)
    >>> box = cv2.boxPoints(((120.0, 40.0), (14.0, 14.0), 20.0))
    >>> _ = cv2.fillConvexPoly(field, np.rint(box).astype(np.int32), (245, 245, 245))
    >>> scorer = RingScorer(field, radius=12.0)
    >>> _die_like(scorer, np.array([40.0, 120.0]), np.array([40.0, 40.0]), 12.0).tolist()
    [False, True]
    """
    offsets, inside = _die_window(radius)
    n, side = len(xs), len(offsets)
    height, width = scorer.height, scorer.width
    # The windows side by side (window row, centre, window column): OpenCV smooths one wide
    # image faster than a tall narrow one.
    rows = np.rint(ys).astype(np.intp)[None, :, None] + offsets[:, None, None]
    cols = np.rint(xs).astype(np.intp)[None, :, None] + offsets[None, None, :]
    flat = np.minimum(np.maximum(rows, 0), height - 1) * width
    flat = flat + np.minimum(np.maximum(cols, 0), width - 1)
    a = scorer.a.ravel().take(flat)
    b = scorer.b.ravel().take(flat)
    if rows.min() < 0 or rows.max() >= height or cols.min() < 0 or cols.max() >= width:
        # Pixels beyond the image's border were not seen: no edge there.
        seen = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
        a *= seen
        b *= seen
    # Smoothed in one pass each: where two windows meet, the smoothing mixes only pixels
    # outside DIE_INSIDE, which count for nothing below.  Then one window per row.
    smooth = (DIE_SMOOTH, DIE_SMOOTH)
    a = cv2.blur(a.reshape(side, n * side), smooth).reshape(side, n, side)
    b = cv2.blur(b.reshape(side, n * side), smooth).reshape(side, n, side)
    a = a.transpose(1, 0, 2).reshape(n, -1)
    b = b.transpose(1, 0, 2).reshape(n, -1)
    a_squared, b_squared = a * a, b * b
    squared = a_squared + b_squared  # the strength s squared
    strength = np.sqrt(squared)
    # Sums over the pixels inside DIE_INSIDE as products with its 0/1 weights.
    total = strength @ inside
    # Coherences weighted by s squared (the strongest, straightest edges, a die's outline
    # against the board, count most): |sum of s^2 e^(2i phi)| and |sum of s^2 e^(4i phi)|
    # over the sum of s^2, the latter sum being that of (a + ib)^2.
    weight = squared @ inside + 1e-6
    twofold = np.hypot((strength * a) @ inside, (strength * b) @ inside) / weight
    fourfold = np.hypot((a_squared - b_squared) @ inside, 2 * ((a * b) @ inside)) / weight
    return (total >= DIE_EDGES * float(inside.sum())) & (fourfold - twofold >= DIE_SQUARE)


def _far_rim(lab: np.ndarray, x: float, y: float, radius: float, edge_up: bool) -> float:
    """How clearly a rim shows on the arc of a disc centred at (``x``, ``y``) facing the
    board's centre (down the image when ``edge_up``): per direction within 26 degrees of the
    axis, the largest colour change (Lab units per pixel, lightly smoothed) across the ring
    between 0.8 and 1.2 radii; the median over those directions.

    A rim is a circle, so it shows at that distance in every direction; plain paint, a
    triangle's side or a die's square outline do not.

    >>> import cv2
    >>> img = np.full((80, 80, 3), 120, np.uint8)
    >>> _ = cv2.circle(img, (40, 40), 12, (60, 60, 160), -1)
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> _far_rim(lab, 40, 40, 12.0, True) > 10, _far_rim(lab, 40, 70, 12.0, True) < 1
    (True, True)
    """
    profile = _far_profile(lab, x, y, radius, edge_up)
    if profile is None:
        return 0.0
    change, mid = profile
    band = (mid >= 0.8 * radius) & (mid <= 1.2 * radius)
    return float(np.median(change[:, band].max(axis=1)))


def _far_step(lab: np.ndarray, x: float, y: float, radius: float, edge_up: bool) -> float:
    """How far a rim on the far arc of a disc centred at (``x``, ``y``) stands above the
    colour's own change beside it: per direction of :func:`_far_rim`'s arc, its largest change
    between 0.8 and 1.2 radii less the smaller of the median changes just inside (0.5 to 0.7
    radii) and just outside (1.3 to 1.5 radii) that band (Lab units per pixel); the median over
    those directions.

    A rim is a step at the disc's radius, with plain paint beyond it (or a plain face inside:
    a checker's face may be shaded toward its rim); glare or shading across plain paint is a
    ramp that changes it as much inside as outside that band.

    >>> import cv2
    >>> img = np.full((80, 80, 3), 120, np.uint8)
    >>> _ = cv2.circle(img, (40, 40), 12, (110, 110, 110), -1)
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> ramp = np.repeat(np.linspace(60, 200, 80)[:, None], 80, axis=1)
    >>> ramp = cv2.cvtColor(np.dstack([ramp] * 3).astype(np.uint8), cv2.COLOR_BGR2LAB)
    >>> ramp = ramp.astype(np.float32)
    >>> _far_step(lab, 40, 40, 12.0, True) > 2, _far_step(ramp, 40, 40, 12.0, True) < 1
    (True, True)
    """
    steps = _far_steps(lab, x, y, radius, edge_up)
    return 0.0 if steps is None else float(np.median(steps))


def _far_steps(lab: np.ndarray, x: float, y: float, radius: float, edge_up: bool
               ) -> np.ndarray | None:
    """:func:`_far_step`'s step in each direction of the far arc, in order across it (Lab
    units per pixel); None where the image holds too little around the place.

    >>> import cv2
    >>> img = np.full((80, 80, 3), 120, np.uint8)
    >>> _ = cv2.circle(img, (40, 40), 12, (110, 110, 110), -1)
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> bool(_far_steps(lab, 40, 40, 12.0, True).min() > 2)
    True
    >>> _ = cv2.rectangle(img, (20, 49), (38, 60), (110, 110, 110), -1)  # a side across half
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> bool(_far_steps(lab, 40, 40, 12.0, True).min() < 2)
    True
    """
    profile = _far_profile(lab, x, y, radius, edge_up)
    if profile is None:
        return None
    return _steps_above_beside(*profile, radius)


def _steps_above_beside(change: np.ndarray, mid: np.ndarray, radius: float) -> np.ndarray:
    """:func:`_far_steps` of a far-arc profile (:func:`_far_profile`'s changes and distances)."""
    band = (mid >= 0.8 * radius) & (mid <= 1.2 * radius)
    beside = np.minimum(np.median(change[:, mid <= 0.7 * radius], axis=1),
                        np.median(change[:, mid >= 1.3 * radius], axis=1))
    return change[:, band].max(axis=1) - beside


def _sampled_step(sampled: tuple[np.ndarray, np.ndarray, float], radius: float,
                  lightness: bool = False) -> float:
    """:func:`_far_step` of a far arc already sampled (:func:`_far_samples` of a Lab image):
    of its colour, or of its lightness alone (``lightness``), as :func:`_far_step` of the
    image's lightness gives.

    >>> import cv2
    >>> img = np.full((80, 80, 3), 120, np.uint8)
    >>> _ = cv2.circle(img, (40, 40), 12, (60, 60, 160), -1)
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> sampled = _far_samples(lab, 40, 40, 12.0, True)
    >>> (_sampled_step(sampled, 12.0), _sampled_step(sampled, 12.0, lightness=True)) == (
    ...     _far_step(lab, 40, 40, 12.0, True), _far_step(lab[:, :, 0], 40, 40, 12.0, True))
    True
    """
    samples, rho, step = sampled
    if lightness:
        samples = samples[:, :, :1]
    change = np.sqrt((np.diff(samples, axis=1) ** 2).sum(axis=2)) / step
    return float(np.median(_steps_above_beside(change, rho[:-1] + step / 2, radius)))


def _sampled_rim_line(sampled: tuple[np.ndarray, np.ndarray, float], radius: float) -> float:
    """:func:`_far_rim_line` of the lightness of a far arc already sampled
    (:func:`_far_samples` of a Lab image).

    >>> import cv2
    >>> img = np.full((80, 80, 3), 120, np.uint8)
    >>> _ = cv2.circle(img, (40, 40), 12, (100, 100, 100), 2)
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> _sampled_rim_line(_far_samples(lab, 40, 40, 12.0, True), 12.0) == _far_rim_line(
    ...     lab[:, :, 0], 40, 40, 12.0, True)
    True
    """
    samples, rho, _ = sampled
    return _line_beyond_levels(samples[:, :, :1].mean(axis=0)[:, 0], rho, radius)


def _far_circle_step(lab: np.ndarray, x: float, y: float, radius: float, edge_up: bool
                     ) -> float:
    """:func:`_far_step` of the far arc's colour averaged over its directions first: how far
    a change at one distance from (``x``, ``y``) in every direction of the arc (a circle
    about that place) stands above the averaged colour's own change just inside and just
    outside :func:`_far_rim`'s band (Lab units per pixel).

    A rim lies at one radius all along the arc, so averaging the directions keeps it whole;
    a paint's own texture or noise changes at a different distance in each direction and
    averages away, though each direction alone may show a step as large as a faint rim's.
    Beyond a rim lies plain paint: where the averaged colour changes more just outside the
    band than in it (a shadow's soft edge running on past it), there is no rim (0).

    >>> import cv2
    >>> rng = np.random.default_rng(1)
    >>> img = np.full((80, 80, 3), 120, np.uint8)
    >>> _ = cv2.circle(img, (40, 40), 12, (110, 110, 110), -1)
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> blobs = cv2.resize(rng.normal(0, 6, (20, 20)), (80, 80), interpolation=cv2.INTER_CUBIC)
    >>> paint = np.clip(120 + blobs, 0, 255).astype(np.uint8)
    >>> paint = cv2.cvtColor(np.dstack([paint] * 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> _far_circle_step(lab, 40, 40, 12.0, True) > 2
    True
    >>> _far_circle_step(paint, 40, 40, 12.0, True) < 2
    True
    """
    averaged = _far_mean_samples(lab, x, y, radius, edge_up)
    if averaged is None:
        return 0.0
    rim, inside, outside = _averaged_rim_step(*averaged, radius)
    if rim <= outside:
        return 0.0  # a change running on past the band (a shadow's edge), not a rim
    return rim - min(inside, outside)


def _far_axis_circle_step(lab: np.ndarray, x: float, y: float, radius: float, edge_up: bool
                          ) -> float:
    """:func:`_far_circle_step` over the three directions of the far arc nearest the axis
    (within 9 degrees of it): how far the averaged colour's largest change between 0.8 and 1.2
    radii from (``x``, ``y``) stands above its own change just inside or just outside that
    band, whichever is smaller (Lab units per pixel).

    Near a triangle's tip its sides cross the outer directions of the arc; these stay on the
    paint.

    >>> import cv2
    >>> img = np.full((80, 80, 3), 120, np.uint8)
    >>> _ = cv2.circle(img, (40, 40), 12, (110, 110, 110), -1)
    >>> lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> _far_axis_circle_step(lab, 40, 40, 12.0, True) > 2
    True
    >>> _far_axis_circle_step(np.full_like(lab, 120), 40, 40, 12.0, True) < 1
    True
    """
    averaged = _far_mean_samples(lab, x, y, radius, edge_up, near_axis=True)
    if averaged is None:
        return 0.0
    rim, inside, outside = _averaged_rim_step(*averaged, radius)
    return rim - min(inside, outside)


def _far_rim_line(lightness: np.ndarray, x: float, y: float, radius: float, edge_up: bool
                  ) -> float:
    """How far the far arc's lightness, averaged over its directions (:func:`_far_samples`),
    goes beyond both its levels inside (0.5 to 0.7 radii) and outside (1.3 to 1.5 radii) of
    (``x``, ``y``) somewhere between 0.8 and 1.2 radii: darker than the darker of them or
    lighter than the lighter (8-bit Lab units; negative when it stays between them).

    A rim between a face and paint of one colour is a line (a bevel, a groove, a shadow);
    glare or shading across bare paint is a ramp from one level to the other.

    >>> import cv2
    >>> img = np.full((80, 80), 120, np.uint8)
    >>> _ = cv2.circle(img, (40, 40), 12, 100, 2)
    >>> ramp = np.repeat(np.linspace(60, 200, 80)[:, None], 80, axis=1).astype(np.float32)
    >>> _far_rim_line(img.astype(np.float32), 40, 40, 12.0, True) > 5
    True
    >>> _far_rim_line(ramp, 40, 40, 12.0, True) < 0
    True
    """
    averaged = _far_mean_samples(lightness, x, y, radius, edge_up)
    if averaged is None:
        return 0.0
    mean, rho, _ = averaged
    return _line_beyond_levels(mean[:, 0], rho, radius)


def _sibling_rim_line(lightness: np.ndarray, x: float, y: float, radius: float, edge_up: bool,
                      sibling_xs: list[float]) -> float:
    """:func:`_far_rim_line` of the far arc's lightness at (``x``, ``y``) less the median of
    the same at ``sibling_xs`` (the same height): how far a line on that arc stands beyond
    both its levels where the bare points of the same paint show none (8-bit Lab units;
    negative when it stays between them; 0 when nothing can be compared).

    >>> img = np.full((80, 120), 120, np.float32)
    >>> _ = cv2.circle(img, (40, 40), 11, 100, 2)      # a rim on the first point only
    >>> _ = cv2.line(img, (0, 53), (119, 53), 90, 2)   # a printed line across every base
    >>> _far_rim_line(img, 80, 40, 12.0, True) > 5   # a bare base shows the print
    True
    >>> round(_sibling_rim_line(img, 80, 40, 12.0, True, [100.0]), 1)
    0.0
    >>> _sibling_rim_line(img, 40, 40, 12.0, True, [80.0, 100.0]) > 5
    True
    """
    own = _far_mean_samples(lightness, x, y, radius, edge_up)
    if own is None:
        return 0.0
    mean, rho, _ = own
    beside = [_far_mean_samples(lightness, sx, y, radius, edge_up) for sx in sibling_xs]
    beside = [b[0][:, 0] for b in beside if b is not None and b[0].shape == mean.shape]
    if not beside:
        return 0.0
    return _line_beyond_levels(mean[:, 0] - np.median(beside, axis=0), rho, radius)


def _line_siblings_lack(lightness: np.ndarray, x: float, y: float, radius: float,
                        edge_up: bool, sibling_xs: list[float]) -> float:
    """How far a line on the far arc at (``x``, ``y``) stands beyond what the bare points of the
    same paint at ``sibling_xs`` (the same height) show, compared two ways, the larger: its
    profile less theirs (:func:`_sibling_rim_line`: a line printed across every base cancels
    where it lies), and its :func:`_far_rim_line` less the median of theirs (none below 0: a
    sibling's ramp lends no line).  A checker's shadow falls on the paint beyond its rim: its
    profile less theirs then steps down across the rim instead of dipping there, while its own
    line stands out as clearly (synthetic 7335 bottom[4], a tournament set's red checker on a
    red point: 2.1 the first way, 13.6 the second; see :data:`LONE_OWN_LINE`).  The second way
    compares a face of the paint with the paint: it counts only where the arc's lightness just
    inside the rim (0.5 to 0.7 radii) is within :data:`FACE_AS_SIBLINGS` of theirs there (a
    small die lying on a base, lighter than the paint, is not; see there).

    Points whose paint gives way to a lighter border a little beyond a checker's radius from
    the edge, and a checker of the paint with a groove at its rim on the first, its shadow
    keeping the border beyond it dark; the first way sees a step down, the second the line:

    >>> img = np.full((80, 120), 120, np.float32)
    >>> yy, xx = np.mgrid[0:80, 0:120]
    >>> img[yy > 55] = 140
    >>> img[(np.hypot(xx - 40, yy - 40) > 12) & (yy > 40) & (abs(xx - 40) < 24)] = 118
    >>> _ = cv2.circle(img, (40, 40), 11, 100, 2)
    >>> _sibling_rim_line(img, 40, 40, 12.0, True, [80.0, 100.0]) < 5
    True
    >>> _line_siblings_lack(img, 40, 40, 12.0, True, [80.0, 100.0]) > 5
    True

    A lighter face inside the same groove (a die's, not the paint's) is compared the first
    way only:

    >>> img[(np.hypot(xx - 40, yy - 40) < 10)] = 150
    >>> _line_siblings_lack(img, 40, 40, 12.0, True, [80.0, 100.0]) < 5
    True
    """
    first = _sibling_rim_line(lightness, x, y, radius, edge_up, sibling_xs)
    own = _far_mean_samples(lightness, x, y, radius, edge_up)
    beside = [_far_mean_samples(lightness, sx, y, radius, edge_up) for sx in sibling_xs]
    if own is None or not beside or any(b is None for b in beside):
        return first
    mean, rho, _ = own
    face = (rho >= 0.5 * radius) & (rho <= 0.7 * radius)
    if abs(float(mean[face, 0].mean())
           - statistics.median(float(b[0][face, 0].mean()) for b in beside)) >= FACE_AS_SIBLINGS:
        return first
    theirs = statistics.median(_line_beyond_levels(b[0][:, 0], rho, radius) for b in beside)
    return max(first, _line_beyond_levels(mean[:, 0], rho, radius) - max(theirs, 0.0))


def _line_beyond_levels(mean: np.ndarray, rho: np.ndarray, radius: float) -> float:
    """:func:`_far_rim_line` of a direction-averaged far-arc lightness profile (``mean`` at
    distances ``rho``)."""
    inside = float(mean[(rho >= 0.5 * radius) & (rho <= 0.7 * radius)].mean())
    outside = float(mean[(rho >= 1.3 * radius) & (rho <= 1.5 * radius)].mean())
    band = mean[(rho >= 0.8 * radius) & (rho <= 1.2 * radius)]
    return max(min(inside, outside) - float(band.min()), float(band.max()) - max(inside, outside))


def _far_profile(lab: np.ndarray, x: float, y: float, radius: float, edge_up: bool
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """Colour change (Lab units per pixel, lightly smoothed) along rays from (``x``, ``y``)
    toward the board's centre (down the image when ``edge_up``), seven directions within 26
    degrees of the axis, between 0.5 and 1.5 radii: the changes (direction by distance) and
    the distances they are taken at; None where the image holds too little around the place.
    """
    sampled = _far_samples(lab, x, y, radius, edge_up)
    if sampled is None:
        return None
    samples, rho, step = sampled
    change = np.sqrt((np.diff(samples, axis=1) ** 2).sum(axis=2)) / step
    return change, rho[:-1] + step / 2


def _far_samples(lab: np.ndarray, x: float, y: float, radius: float, edge_up: bool
                 ) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The colour (``lab``, lightly smoothed; or one channel of it) along
    :func:`_far_profile`'s rays: the samples (direction by distance by channel), the distances
    and their spacing; None where the image holds too little around the place."""
    reach = int(np.ceil(1.6 * radius)) + 3
    xi, yi = int(round(x)), int(round(y))
    x0, y0 = max(xi - reach, 0), max(yi - reach, 0)
    patch = lab[y0:min(yi + reach + 1, lab.shape[0]), x0:min(xi + reach + 1, lab.shape[1])]
    if patch.shape[0] < 3 or patch.shape[1] < 3:
        return None
    patch = cv2.GaussianBlur(np.ascontiguousarray(patch), (0, 0), 1.0)
    axis = np.pi / 2 if edge_up else -np.pi / 2
    angles = axis + np.radians(np.linspace(-35.0, 35.0, 9)[1:-1])
    step = 0.5
    rho = np.arange(0.5 * radius, 1.5 * radius, step, dtype=np.float32)
    map_x = (x - x0 + np.cos(angles)[:, None] * rho).astype(np.float32)
    map_y = (y - y0 + np.sin(angles)[:, None] * rho).astype(np.float32)
    samples = cv2.remap(patch, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return samples.reshape(len(angles), len(rho), -1), rho, step


def _far_mean_samples(lab: np.ndarray, x: float, y: float, radius: float, edge_up: bool,
                      near_axis: bool = False) -> tuple[np.ndarray, np.ndarray, float] | None:
    """:func:`_far_samples` averaged over the directions (distance by channel; ``near_axis``:
    only the three nearest the point's axis), with the distances and their spacing; None where
    the image holds too little around the place."""
    sampled = _far_samples(lab, x, y, radius, edge_up)
    if sampled is None:
        return None
    samples, rho, step = sampled
    if near_axis:
        middle = len(samples) // 2
        samples = samples[middle - 1:middle + 2]
    return samples.mean(axis=0), rho, step


def _averaged_rim_step(mean: np.ndarray, rho: np.ndarray, step: float, radius: float
                       ) -> tuple[float, float, float]:
    """Along a direction-averaged far-arc profile (:func:`_far_mean_samples`): the largest
    colour change per pixel between 0.8 and 1.2 radii, and the median changes just inside (up
    to 0.7 radii) and just outside (from 1.3 radii) that band."""
    change = np.sqrt((np.diff(mean, axis=0) ** 2).sum(axis=1)) / step
    mid = rho[:-1] + step / 2
    rim = float(change[(mid >= 0.8 * radius) & (mid <= 1.2 * radius)].max())
    return (rim, float(np.median(change[mid <= 0.7 * radius])),
            float(np.median(change[mid >= 1.3 * radius])))


def _without_stray_ends(candidates: dict, chains: dict, radius: float, height: int) -> None:
    """A tall pile ends before a last checker off its rhythm that is the facing point's base or
    of another paint: that is something lying beyond the pile, not a checker of it.

    A pile of more than :data:`FLAT_MOST` (overlapped) is evenly spaced; how far its last
    centre lies beyond where the even spacing of the others puts it (:func:`_beyond_rhythm`)
    tells a checker lying on the pile from a ring touching its end.  The last checker is
    dropped

    * when it lies more than :data:`REGULAR_SLACK` radii beyond and within
      :data:`LONE_EDGE_REACH` radii of the facing edge (against it, where a base's centre is):
      a pile of 14 or 15 runs up to the facing point, whose empty base rings like a checker
      (of the pile's very colour on paint of it).  The facing point's own stack and the lone
      checkers' tests then judge that base;
    * when it lies more than the hand's slack (:data:`REGULAR_SLACK` and 0.05) beyond and
      differs from the checker before it by :data:`HIDDEN_END_JUMP` or more (lightness-weighted
      Lab): a print on the board or a die touching the pile's end rings like a checker of a
      colour near the pile's, but not of its paint.

    Synthetic hard seeds 0-4999 (corners given), the chains of six or more as the columns are
    shared.  At the facing edge: the four read one too many (a pile of 14 or 15 and the facing
    point's empty base) lie 0.29 to 0.68 radii beyond their rhythm, 0.73 to 1.08 radii from
    the facing edge; piles read right end 1.22 radii or more from it (those more than 0.2
    beyond, 1.42 and more); one pile seen from the facing edge (its base 0.82 radii from it,
    0.23 beyond) still goes to its own point when the column is shared.  Of another paint: the
    twelve chains one too many so (a logo, a die beyond the pile; ten of them cut by later
    tests before) lie 0.37 radii or more beyond, their last checker 21.2 or more from the one
    before; the piles read right lying more than 0.25 beyond, 10.2 at most (one 0.21 beyond,
    23.2).
    """
    reach, slack = LONE_EDGE_REACH * radius, (REGULAR_SLACK + 0.05) * radius
    for key, (chain, rival) in chains.items():
        if len(chain) <= FLAT_MOST:
            continue
        cand = candidates[key]
        order = sorted(chain, key=lambda i: float(cand.ys[i]))
        ys = cand.ys[order].astype(float)
        beyond = _beyond_rhythm(ys)
        if beyond <= REGULAR_SLACK * radius:
            continue
        at_facing_base = height - ys[-1] <= reach
        if at_facing_base or (beyond > slack and _colour_distances(
                cand.colours[order[-2:]])[0, 1] >= HIDDEN_END_JUMP):
            chains[key] = (order[:-1], rival)


def _beyond_rhythm(ys: np.ndarray) -> float:
    """How much further from the edge the last of a pile's centres (``ys``, distances from its
    edge, base first) lies than the even spacing fitted to the others puts it.

    >>> float(_beyond_rhythm(np.array([10.0, 27.0, 44.0, 61.0, 78.0, 99.0])))
    4.0
    """
    # (A least-squares line in closed form: np.polyfit costs more than the rest of the test.)
    others = ys[:-1].tolist()
    count = len(others)
    middle, mean = (count - 1) / 2, sum(others) / count
    slope = (sum((k - middle) * (y - mean) for k, y in enumerate(others))
             / sum((k - middle) ** 2 for k in range(count)))
    return float(ys[-1]) - (mean + slope * (count - middle))


def _share_column(candidates: dict, chains: dict, column: int, radius: float, threshold: float,
                  height: int, first_min: float) -> None:
    """Facing stacks cannot overlap: a tall stack seen from the other edge is not a second one.
    Of two that share a checker, the one lying the other way round (:func:`_rises`), else the
    shorter; otherwise the stack whose base sits less snugly at its edge (further from one
    radius out, where a checker lying against it has its centre; failing that, the one with the
    weaker evidence) is read again, kept clear of the other."""
    top, bottom = candidates["top", column], candidates["bottom", column]
    top_chain, bottom_chain = chains["top", column][0], chains["bottom", column][0]
    if not top_chain or not bottom_chain:
        return
    top_end = float(top.ys[top_chain].max())
    bottom_end = float(bottom.ys[bottom_chain].max())
    if top_end + bottom_end <= height - 1.6 * radius:
        return
    top_base, bottom_base = float(top.ys[top_chain].min()), float(bottom.ys[bottom_chain].min())
    # A checker both stacks claim (a tall stack's far end, seen from the other edge as a short
    # stack of its own) belongs to the stack that runs through it: the longer one.
    shared = _shares(top.ys[top_chain], height - bottom.ys[bottom_chain], radius)
    # Read from both edges alike, a pile is told by which way its checkers lie: from its
    # own edge each lies on the one before (the base's far arc hidden), from the facing edge
    # each under the one before.
    top_rise, bottom_rise = _rises(top, top_chain), _rises(bottom, bottom_chain)
    if shared and top_rise != bottom_rise and None not in (top_rise, bottom_rise):
        top_weaker = bottom_rise
    elif shared and len(top_chain) != len(bottom_chain):
        top_weaker = len(top_chain) < len(bottom_chain)
    elif abs(top_base - bottom_base) > 0.4 * radius:
        # A base lying against its edge has its centre a radius from it: one nearer the edge
        # than that (a ring on the frame's lip) sits less snugly than one a radius out.
        top_weaker = abs(top_base - radius) > abs(bottom_base - radius)
    else:
        def strength(c: _Candidates, chain: list[int]) -> float:
            return float(np.mean(np.maximum(c.full, np.maximum(c.no_far, c.no_near))[chain]))
        top_weaker = strength(top, top_chain) < strength(bottom, bottom_chain)
    # The weaker stack is read again over what the ring map proposed: the centres of a
    # whole-stack model fitted to it (its evidence taken with the fit's slack) belong to a
    # stack the other one's claim has just refuted.
    if top_weaker:
        chains["top", column] = top.chain(radius, threshold, height - bottom_end - 1.6 * radius,
                                          first_min, proposed_only=True)
    else:
        chains["bottom", column] = bottom.chain(radius, threshold, height - top_end - 1.6 * radius,
                                                first_min, proposed_only=True)


def _rises(cand: _Candidates, chain: list[int]) -> bool | None:
    """Whether an overlapped stack of at least :data:`RECOUNT_LEAST` lies the usual way from
    this point's edge, each checker on the one before (its far arc hidden: rims but for the far
    arc show better than rims but for the near arc, summed over all but the last), rather than
    each under the one before, as a pile standing on the facing point looks from here.
    ``None`` for a shorter stack or when the rims do not say.

    >>> cand = _Candidates(np.float32([10, 25, 40, 55]), *(np.zeros(4, np.float32),) * 2,
    ...                    np.ones(4, np.float32), np.float32([0.95, 0.9, 0.95, 1.0]),
    ...                    np.float32([0.6, 0.65, 0.6, 1.0]), np.zeros((4, 3), np.float32),
    ...                    np.ones(4, np.float32))
    >>> _rises(cand, [0, 1, 2, 3]), _rises(cand, [0, 1])
    (True, None)
    """
    if len(chain) < RECOUNT_LEAST:
        return None
    order = sorted(chain, key=lambda i: float(cand.ys[i]))[:-1]
    lean = float((cand.no_far[order] - cand.no_near[order]).sum())
    return None if lean == 0 else lean > 0


def _shares(stack_at: np.ndarray, others_at: np.ndarray, radius: float) -> bool:
    """Whether a centre of ``others_at`` lies within half a radius of one of ``stack_at`` (both
    distances from the same edge): the same checker found from both edges.

    >>> _shares(np.array([10.0, 30.0, 50.0]), np.array([70.0, 48.0]), 10.0)
    True
    >>> _shares(np.array([10.0, 30.0]), np.array([48.0]), 10.0)
    False
    """
    gaps = np.abs(np.asarray(others_at, float)[:, None] - np.asarray(stack_at, float)[None, :])
    return bool(np.any(gaps <= 0.5 * radius))


#: How far (radii) from a bar ring's centre its face is sampled to the sides and up and down,
#: and the half-size (radii) of each square sampled: inside a checker's face, beyond a hinge's
#: leaves (a hinge is about a radius wide and two long, along the bar).
HINGE_REACH = 0.6
HINGE_PATCH = 0.15
#: Weighted-Lab difference a checker's plain face may show between its middle and its sides
#: (noise, a groove, a faint gloss) beyond twice what it shows up and down (see _hinge_like).
HINGE_FACE_NOISE = 6.0


def _hinge_like(scorer: RingScorer, x: float, y: float) -> bool:
    """Whether the face of the bar ring centred at (x, y) is that of a hinge, not a checker.

    A hinge is narrower than a checker and long along the bar: beside its middle, to the left
    and to the right, lies the bar, while above and below lies more of the hinge.  A checker's
    face is one paint all round.  So a ring is hinge-like when its sides (at
    :data:`HINGE_REACH` radii), taken together, differ from its middle (lightness-weighted
    Lab) by more than twice what its top and bottom together do, plus :data:`HINGE_FACE_NOISE`.

    >>> field = np.full((60, 40, 3), 30, np.uint8)           # a dark bar
    >>> field[18:42, 15:25] = 180                              # a grey hinge, 10 wide, 24 long
    >>> scorer = RingScorer(field, radius=10.0)
    >>> _hinge_like(scorer, 20.0, 30.0)
    True
    >>> field[20:40, 10:30] = 200                              # a light disc's face instead
    >>> _hinge_like(RingScorer(field, radius=10.0), 20.0, 30.0)
    False
    """
    radius = scorer.radius
    half = max(1.0, HINGE_PATCH * radius)
    reach = HINGE_REACH * radius
    lab = scorer.lab
    height, width = lab.shape[:2]

    def patch(px: float, py: float) -> np.ndarray:
        x0 = int(min(max(round(px - half), 0), width - 1))
        y0 = int(min(max(round(py - half), 0), height - 1))
        x1 = max(x0 + 1, min(int(round(px + half)) + 1, width))
        y1 = max(y0 + 1, min(int(round(py + half)) + 1, height))
        return weighted(lab[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0))[0]

    middle = patch(x, y)
    # The mean of opposite samples: a light falling across a checker's face (brighter on one
    # side, darker on the other) leaves it at the middle's colour, while the bar on both sides
    # of a hinge moves it the same way.
    sides = float(np.linalg.norm((patch(x - reach, y) + patch(x + reach, y)) / 2 - middle))
    ends = float(np.linalg.norm((patch(x, y - reach) + patch(x, y + reach)) / 2 - middle))
    return sides > 2 * ends + HINGE_FACE_NOISE


def _bar_stack(scorer: RingScorer, geometry: BoardGeometry, threshold: float,
               checker_colours: np.ndarray | None = None) -> Stack:
    """Checkers on the bar: separate, well-covered rings along the bar's axis.

    A ring whose rim is as whole as a point's checker's must be (``threshold``) is a checker
    when it has the colour of a checker found on the points (``checker_colours``, Lab; closer
    than :data:`SAME_PAINT`).  One of another colour needs a checker's face (not
    :func:`_hinge_like`): the bar's hinges, metal, ring nearly as well between the bar's edges,
    but a hinge is narrow and long where a checker is one paint all round; and its whole rim
    (:data:`BAR_THRESHOLD`), or the colour of a checker already taken on the bar.  (A dark
    checker on a dark bar shows a faint rim, a glossy one a broken one; a player's checkers may
    all be on the bar, none on the points to give their colour, and the bar's light may differ
    from the points': the rings are taken wholest first, so a checker showing its whole rim
    there gives its colour to the others of its player on the bar.  Held seed 5357 and solid
    seeds 355, 441: black checkers on a black bar showing 0.84-0.91 of their rims, of a colour
    8.1 from the points' blacks or with no black on the points.)  A ring refused only for its
    hinge-like face, rim whole, is looked at again once every ring has been: it is a checker when
    it has the colour of one taken on the bar with its whole rim (a hinge is metal, a checker
    taken whole shows its player's paint; a glossy checker's sheen can make its face hinge-like,
    seed 9097).
    """
    radius = scorer.radius
    h = geometry.height
    ys = geometry.margin + np.arange(radius, h - radius, 1.0, dtype=np.float32)
    lateral = np.array([-0.25, 0.0, 0.25], np.float32) * radius
    bar_x = geometry.margin + geometry.bar_x
    grid = scorer.score(bar_x + lateral[:, None], ys[None, :])
    best_lateral = np.argmax(grid, axis=0)
    profile = grid[best_lateral, np.arange(ys.size)]
    peaks = _peaks(profile, max(1, int(radius * 0.3)))
    px = bar_x + lateral[best_lateral[peaks]]
    py = ys[peaks]
    cover = scorer.coverage(px, py)[0] if peaks.size else np.zeros(0)
    py, cover = _bar_rings_refined(scorer, px, py, cover, threshold)
    stack = Stack("bar", 0)
    taken: list[float] = []
    known = (weighted(checker_colours) if checker_colours is not None and len(checker_colours)
             else None)
    on_bar = np.zeros((0, 3), np.float32)   # the colours taken on the bar (weighted Lab)
    whole_on_bar = np.zeros((0, 3), np.float32)   # those of checkers taken with whole rims
    hinge_like: list[tuple[int, np.ndarray]] = []   # whole rings refused for their face alone

    def take(i: int, x: float, y: float, colour: np.ndarray) -> None:
        nonlocal on_bar, whole_on_bar
        paint = weighted(np.asarray(colour, np.float32)[None, :])
        on_bar = np.vstack([on_bar, paint])
        if cover[i] >= BAR_THRESHOLD:
            whole_on_bar = np.vstack([whole_on_bar, paint])
        taken.append(y)
        stack.centres.append((x, y))
        stack.scores.append(float(cover[i]))
        stack.colours.append(colour)

    for i in np.argsort(cover)[::-1]:
        if cover[i] < threshold or len(taken) >= 15:
            break
        y = float(py[i])
        if any(abs(y - t) < 1.6 * radius for t in taken):
            continue
        x = float(px[i])
        colour = scorer.disc_colour(x, y)
        if not _players_colour(colour, known):
            if cover[i] < BAR_THRESHOLD and not _players_colour(colour, on_bar):
                continue
            if _hinge_like(scorer, x, y):
                if cover[i] >= BAR_THRESHOLD:
                    hinge_like.append((int(i), colour))
                continue
        take(int(i), x, y, colour)
    # A whole ring of the colour of a checker taken whole on the bar is that player's checker
    # though its face looks like a hinge's (a glossy checker's shading: seed 9097, a red
    # refused with sides 7.6 against ends 0.7); looked at once every ring has been, so that
    # the order of rings of equal cover does not matter.
    for i, colour in hinge_like:
        y = float(py[i])
        if len(taken) >= 15 or any(abs(y - t) < 1.6 * radius for t in taken):
            continue
        if _players_colour(colour, whole_on_bar):
            take(i, float(px[i]), y, colour)
    return stack


#: Offsets (pixels along the bar) at which a bar ring just short of the threshold is read again.
BAR_REFINE_OFFSETS = (-2.0, -1.0, 1.0, 2.0)


def _bar_rings_refined(scorer: RingScorer, px: np.ndarray, py: np.ndarray, cover: np.ndarray,
                       threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """The bar's proposed rings (``px``, ``py``, their rim shares ``cover``), each one within
    :data:`REFINE_BELOW` under ``threshold`` moved along the bar to where its rim shows best
    within :data:`BAR_REFINE_OFFSETS`, when that clears the threshold there.

    The coarse ring map proposes centres at half resolution: a checker whose rim is broken (a
    glossy one's sheen, a dark one's faint rim on a dark bar) may fall just short where it is
    proposed and show the threshold's share of its rim a pixel or two away.  The checker tests
    that follow (colour, whole rim, a hinge's face) are unchanged.

    >>> field = np.full((120, 60, 3), 40, np.uint8)
    >>> _ = cv2.circle(field, (30, 61), 10, (90, 90, 90), 2)
    >>> scorer = RingScorer(field, 11.0)
    >>> xs, ys = np.float32([30.0]), np.float32([55.0])  # proposed 6 pixels off
    >>> cover = scorer.coverage(xs, ys)[0]
    >>> moved, refined = _bar_rings_refined(scorer, xs, ys, cover, 0.82)
    >>> float(cover[0]), float(moved[0]), float(refined[0])
    (0.78125, 57.0, 1.0)
    """
    near = np.flatnonzero((cover < threshold) & (cover >= threshold - REFINE_BELOW))
    if near.size == 0:
        return py, cover
    offsets = np.float32(BAR_REFINE_OFFSETS)
    xs = np.repeat(px[near], offsets.size)
    ys = (py[near, None] + offsets[None, :]).ravel()
    trial = scorer.coverage(xs, ys)[0].reshape(near.size, offsets.size)
    best = trial.argmax(axis=1)
    better = trial[np.arange(near.size), best] >= threshold
    if not better.any():
        return py, cover
    py, cover = py.copy(), cover.copy()
    moved = near[better]
    py[moved] = py[moved] + offsets[best[better]]
    cover[moved] = trial[better, best[better]]
    return py, cover


def _players_colour(colour: np.ndarray, known: np.ndarray | None) -> bool:
    """Whether a Lab colour is that of one of the checkers ``known`` (lightness-weighted Lab,
    as :func:`calibration.colours.weighted` gives): closer than :data:`SAME_PAINT` to one.

    >>> known = weighted(np.float32([[40, 128, 128], [230, 128, 130]]))
    >>> _players_colour(np.float32([44, 129, 127]), known), _players_colour(
    ...     np.float32([140, 129, 128]), known), _players_colour(np.float32([40, 128, 128]), None)
    (True, False, False)
    """
    if known is None or not len(known):
        return False
    gaps = np.sqrt(((known - weighted(np.asarray(colour, np.float32)[None, :])) ** 2).sum(axis=1))
    return bool(gaps.min() < SAME_PAINT)

