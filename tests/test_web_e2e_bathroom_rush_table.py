"""Bathroom Rush at the table, in headless Chromium at a phone's size
(390x844), in English, French and Italian: light tracking's cleanup in two
taps a player on several phones at once, the reveals at the thumb, and the
prompts that name people."""

from __future__ import annotations

import pytest

from companion.core.engine import Command
from companion.core.games.bathroom_rush.text import TEXT
from tests import test_web_e2e as e2e
from tests.test_web_e2e import PHONE, expect, live, shot
from tests.test_web_languages import english_in

browser = e2e.browser
companion = e2e.companion
phones = e2e.phones

pytestmark = pytest.mark.browser

THREE = ["Ana", "Ben", "Cy"]
LANGS = ["en", "fr", "it"]
LOCALES = {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}
BOX = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 30},
       {"name": "Anziano", "colour": "orange", "pipi": 2, "popo": 0, "copies": 6}]


def board(lang: str, key: str, **fields) -> str:
    """A phrase of the Bathroom Rush board in ``lang``."""
    return TEXT[lang][f"board.{key}"].format(**fields)


def phone(phones, companion, lang: str, seat: str | None = None):
    """A controller's phone in ``lang``, belonging to ``seat`` (picked on
    the seat picker), with its taps counted."""
    page = phones(locale=LOCALES[lang])
    page.goto(companion.join_url)
    live(page)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    if seat is not None:
        page.click("#seat")
        page.click(f"#sheet .option[data-seat='{THREE.index(seat)}']")
        expect(page.locator("#seat.mine")).to_have_text(seat)
    assert page.viewport_size == PHONE
    page.taps = 0
    return page


def tap(page, selector: str) -> None:
    """A tap that the table answers (the page shows its answer next)."""
    with page.expect_response(lambda r: r.request.method == "POST" and "/api/" in r.url):
        page.click(selector)
    page.taps += 1


def pick(page, selector: str) -> None:
    """A tap that only changes the phone (a value picked)."""
    page.click(selector)
    page.taps += 1


def in_sight(page, selector: str) -> bool:
    """The element is on screen and nothing covers its centre."""
    return page.evaluate("""(selector) => {
        const el = document.querySelector(selector);
        if (!el) return false;
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (r.top < 0 || r.bottom > innerHeight || x < 0 || x > innerWidth) return false;
        const top = document.elementFromPoint(x, y);
        return !!top && (el.contains(top) || !!top.closest('#toast'));
    }""", selector)


def scroll_to_the_end(page) -> None:
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")


def light_cleanup(companion) -> None:
    companion.table.new_game("bathroom-rush", THREE, variants=["light-tracking"])
    for _ in range(3):
        companion.table.submit(Command("end-turn", {}))
    assert companion.table.game.phase == "cleanup"


def row(seat: int) -> str:
    return f".br-entry[data-seat='{seat}']"


# -- light tracking's cleanup ------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_light_round_for_three_is_nine_taps_two_a_player_at_the_cleanup(companion, phones,
                                                                          lang):
    companion.table.new_game("bathroom-rush", THREE, variants=["light-tracking"])
    page = phone(phones, companion, lang)
    for _ in range(3):
        tap(page, "button[data-command=end-turn]")
    assert companion.table.game.phase == "cleanup"
    expect(page.locator(".br-entry")).to_have_count(3)
    # Nobody's turn: every player is waited for, none marked as playing.
    expect(page.locator(".player .turn-tag")).to_have_count(0)
    expect(page.locator(".player .br-to-enter")).to_have_text([board(lang, "to_enter")] * 3)
    for seat, name in enumerate(THREE):
        # The button that sends the entry names its player; popò starts at 0.
        expect(page.locator(f"{row(seat)} .br-take")).to_have_text(
            board(lang, "takes_pick", name=name))
        expect(page.locator(f"{row(seat)} .br-popo [data-popo='0']")).to_have_attribute(
            "aria-pressed", "true")
    shot(page, f"bathroom-rush-light-cleanup-{lang}")
    if lang != "en":
        assert english_in(page, lang) == []
    for seat, name in enumerate(THREE):
        pick(page, f"{row(seat)} .br-pipi [data-pipi='{seat + 1}']")
        expect(page.locator(f"{row(seat)} .br-take")).to_have_text(
            board(lang, "takes", name=name, pipi=seat + 1, popo=0))
        tap(page, f"{row(seat)} .br-take")
    expect(page.locator(".br-entry")).to_have_count(0)
    assert page.taps == 9
    game = companion.table.game
    assert game.round == 2 and game.phase == "E"
    assert [(r["pipi"], r["popo"]) for r in game.reserves] == [(1, 0), (2, 0), (3, 0)]
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_each_player_enters_their_own_tokens_on_their_phone_at_the_same_time(companion, phones,
                                                                             lang):
    light_cleanup(companion)
    ana = phone(phones, companion, lang, seat="Ana")
    ben = phone(phones, companion, lang, seat="Ben")
    # Each phone has its player's row first, at the thumb.
    expect(ana.locator(".br-entry").first).to_have_attribute("data-seat", "0")
    expect(ben.locator(".br-entry").first).to_have_attribute("data-seat", "1")
    assert in_sight(ana, f"{row(0)} .br-take") and in_sight(ben, f"{row(1)} .br-take")
    pick(ana, f"{row(0)} .br-pipi [data-pipi='3']")
    pick(ana, f"{row(0)} .br-popo [data-popo='1']")
    # Ben sends his while Ana is still choosing: Ana's choice stays.
    pick(ben, f"{row(1)} .br-pipi [data-pipi='2']")
    tap(ben, f"{row(1)} .br-take")
    expect(ana.locator(row(1))).to_have_count(0)
    expect(ana.locator(f"{row(0)} .br-pipi [data-pipi='3']")).to_have_attribute(
        "aria-pressed", "true")
    expect(ana.locator(f"{row(0)} .br-take")).to_have_text(
        board(lang, "takes", name="Ana", pipi=3, popo=1))
    # Cy's entry reaches the table between Ana's tap and her phone's
    # request: the phone sends hers again, against the table as it is.
    sent = []

    def cy_first(route):
        if not sent:
            companion.table.submit(Command("bathroom-tokens",
                                           {"player": 2, "pipi": 0, "popo": 0}))
        sent.append(route.request.post_data_json["version"])
        route.continue_()

    ana.route("**/api/command", cy_first)
    tap(ana, f"{row(0)} .br-take")
    expect(ana.locator(".br-entry")).to_have_count(0)
    assert len(sent) == 2 and sent[1] == sent[0] + 1
    assert ana.taps == 3  # two choices (3 pipì, 1 popò) and the button
    game = companion.table.game
    assert game.round == 2
    assert [(r["pipi"], r["popo"]) for r in game.reserves] == [(3, 1), (2, 0), (0, 0)]
    assert ana.script_errors == [] and ben.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_reaching_the_bathroom_at_the_cleanup_names_each_player(companion, phones, lang):
    light_cleanup(companion)
    page = phone(phones, companion, lang)
    page.click("#more-moves")
    reached = page.locator("#sheet button[data-command=reached]")
    expect(reached).to_have_count(3)
    said = [companion.table.game.expected(lang)[-3 + n].prompt for n in range(3)]
    for n, name in enumerate(THREE):
        assert name in said[n]
        expect(reached.nth(n)).to_contain_text(said[n])
    assert page.script_errors == []


# -- reveals at the thumb --------------------------------------------------------------


def choose_queues(companion, options=None) -> None:
    companion.table.new_game("bathroom-rush", THREE, options=options or {})
    for queue in (1, 2, 3):
        companion.table.submit(Command("choose-queue", {"queue": queue}))


@pytest.mark.parametrize("lang", LANGS)
def test_with_a_box_every_reveal_is_in_the_dock_wherever_the_page_is_scrolled(companion, phones,
                                                                             lang):
    choose_queues(companion, {"box": BOX})
    page = phone(phones, companion, lang)
    reveals = 0
    while companion.table.game.phase == "A":
        wait = companion.table.game.expected(lang)[0]
        assert wait.command == "reveal-kind"
        expect(page.locator("#dock .br-kinds h2")).to_have_text(wait.prompt)
        scroll_to_the_end(page)
        assert in_sight(page, "#dock .persona-kind[data-kind=Signora]")
        if reveals == 0:
            shot(page, f"bathroom-rush-reveal-in-the-dock-{lang}")
        tap(page, "#dock .persona-kind[data-kind=Signora]")
        reveals += 1
    assert reveals == 10
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_box_the_reveal_grid_is_in_the_dock(companion, phones, lang):
    choose_queues(companion)
    page = phone(phones, companion, lang)
    wait = companion.table.game.expected(lang)[0]
    expect(page.locator("#dock .br-printed h2")).to_have_text(wait.prompt)
    scroll_to_the_end(page)
    for colour in ("neutral", "orange", "red", "yellow"):
        assert in_sight(page, f"#dock .persona-printed[data-colour={colour}][data-pipi='2']"
                              "[data-popo='1']")
    assert in_sight(page, "#dock #reveal-other")
    tap(page, "#dock .persona-printed[data-colour=orange][data-pipi='2'][data-popo='1']")
    assert page.taps == 1
    persona = companion.table.game.persona(1, 1)
    assert (persona["colour"], persona["pipi"], persona["popo"]) == ("orange", 2, 1)
    shot(page, f"bathroom-rush-reveal-printed-in-the-dock-{lang}")
    assert page.script_errors == []


# -- prompts that name people ------------------------------------------------------------


def to_phase_e(companion) -> None:
    choose_queues(companion, {"box": BOX})
    table = companion.table
    while table.game.phase != "E":
        wait = table.game.expected()[0]
        if wait.command == "reveal-kind":
            table.submit(Command("reveal-kind", {**wait.args, "kind": "Signora"}))
        else:
            table.submit(Command("defend", {}))


@pytest.mark.parametrize("lang", LANGS)
def test_give_up_your_place_asks_on_whom_over_the_players_names(companion, phones, lang):
    to_phase_e(companion)
    page = phone(phones, companion, lang)
    # The turn's three choices, asked as one question.
    expect(page.locator("#prompt")).to_have_text(companion.table.game.expected(lang)[0].prompt)
    assert companion.table.game.expected(lang)[0].prompt.endswith("?")
    tap(page, ".br-cards .action-card[data-card=give-up-your-place]")
    card = TEXT[lang]["card.give-up-your-place"]
    expect(page.locator("#prompt")).to_have_text(board(lang, "on_whom", name="Ana", card=card))
    whom = page.locator("#dock .br-whom button")
    targets = [e.args for e in companion.table.game.expected() if e.command == "target"]
    names = [companion.table.game.players[companion.table.game.queues[a["queue"] - 1]
                                         ["slots"][a["position"] - 1]["player"]]
             for a in targets]
    expect(whom).to_have_text(names)
    shot(page, f"bathroom-rush-on-whom-{lang}")
    tap(page, "#dock .br-whom button[data-player='1']")
    assert companion.table.game.attack["seat"] == 1
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_box_an_orange_persona_says_what_the_table_does(companion, phones, lang):
    choose_queues(companion)
    table = companion.table
    while table.game.phase == "A":
        args = table.game.expected()[0].args
        orange = args == {"queue": 1, "position": 8}  # right behind Ana
        table.submit(Command("reveal", {**args, "pipi": 1, "popo": 0,
                                        "colour": "orange" if orange else "neutral"}))
    assert table.game.phase == "D"
    page = phone(phones, companion, lang)
    said = table.game.expected(lang)[0].prompt
    expect(page.locator("#prompt")).to_have_text(said)
    assert "queue operations" not in said
    assert {"en": "a box described", "fr": "une boîte décrite",
            "it": "una scatola descritta"}[lang] in said
    # The effect as the table applied it: a pipì for Ben, then one tap.
    assert in_sight(page, "#dock .br-effect-pipi [data-pipi='1']")
    pick(page, "#dock .br-effect-pipi [data-pipi='1']")
    pick(page, "#dock .br-effect-to [data-to='1']")
    expect(page.locator("#dock button[data-command=effect]")).to_contain_text("Ben")
    shot(page, f"bathroom-rush-effect-by-hand-{lang}")
    tap(page, "#dock button[data-command=effect]")
    assert table.game.reserves[1]["pipi"] == 1 and table.game.reserves[0]["pipi"] == 0
    assert page.taps == 3
    assert page.script_errors == []


def cards_in_the_dock(page) -> list[str]:
    return page.locator("#dock .br-cards .action-card").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.card)")


@pytest.mark.parametrize("lang", LANGS)
def test_cunning_is_two_taps_the_card_then_in_front_or_behind_in_words(companion, phones,
                                                                        lang):
    to_phase_e(companion)
    page = phone(phones, companion, lang)
    assert "cunning" in cards_in_the_dock(page)
    assert in_sight(page, "#dock .action-card[data-card=cunning]")
    tap(page, "#dock .action-card[data-card=cunning]")
    expect(page.locator("#prompt")).to_have_text(board(lang, "cunning_ask", name="Ana"))
    places = page.locator("#dock .br-places button")
    expect(places).to_have_count(2)
    expect(places.nth(0)).to_contain_text(board(lang, "in_front"))
    expect(places.nth(1)).to_contain_text(board(lang, "behind"))
    shot(page, f"bathroom-rush-cunning-{lang}")
    at = companion.table.game.locate(0)
    tap(page, "#dock .br-places button[data-place=in_front]")
    assert page.taps == 2
    assert companion.table.game.locate(0) != at  # Ana moved up
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_cleaner_is_two_taps_the_card_then_the_bathroom_by_its_queue(companion, phones,
                                                                          lang):
    to_phase_e(companion)
    table = companion.table
    page = phone(phones, companion, lang)
    tap(page, "#dock .action-card[data-card=cleaner]")
    expect(page.locator("#prompt")).to_have_text(board(lang, "cleaner_ask", name="Ana"))
    free = table.game.free_queue()
    button = page.locator(f"#dock .br-places button[data-queue='{free}']")
    expect(button).to_contain_text(board(lang, "queue_of", q=free, name=board(lang, "nobody")))
    shot(page, f"bathroom-rush-cleaner-{lang}")
    tap(page, f"#dock .br-places button[data-queue='{free}']")
    assert page.taps == 2
    assert [e.command for e in table.game.expected()] == ["roll"]  # its die, apart
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_light_tracking_shows_only_what_it_tracks_and_keeps_undo_at_the_count(companion,
                                                                            phones, lang):
    table = companion.table
    table.new_game("bathroom-rush", ["Ana", "Ben", "Cy", "Dee"], variants=["light-tracking"])
    table.submit(Command("reached", {"player": 0}))
    while table.game.phase != "count":
        wait = table.game.expected()[0]
        if wait.command == "end-turn":
            table.submit(Command("end-turn", {}))
        else:
            table.submit(Command(wait.command, {"player": wait.player, "pipi": 1, "popo": 0}))
    page = phone(phones, companion, lang)
    expect(page.locator("#dock .br-entry")).to_have_count(3)
    left = board(lang, "deck", n=0).split("0")[0].strip()
    assert left not in page.inner_text("#board")
    assert page.locator("#board .queues").count() == 0
    shot(page, f"bathroom-rush-light-count-{lang}")
    assert in_sight(page, "#dock #undo") and in_sight(page, "#dock #corrections")
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_queue_is_called_free_while_a_player_may_still_choose_it(companion, phones, lang):
    companion.table.new_game("bathroom-rush", THREE)
    page = phone(phones, companion, lang)
    free = board(lang, "free_queue", q=1).split("1")[-1].strip()
    for queue in (1, 2):
        tap(page, f".stand[data-queue='{queue}']")
        expect(page.locator(".queue.free")).to_have_count(0)
        assert free not in page.inner_text("#board")
    tap(page, ".stand[data-queue='3']")
    expect(page.locator(".queue.free .queue-owner")).to_contain_text(
        board(lang, "free_queue", q=4))
    assert page.script_errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_persona_on_the_infamous_person_is_turned_up_from_the_dock_and_shown_on_him(
        companion, phones, lang):
    box = [{"name": "Signora", "colour": "neutral", "pipi": 1, "popo": 0, "copies": 40},
           {"name": "Infame", "colour": "yellow", "pipi": 1, "popo": 0, "copies": 6}]
    choose_queues(companion, {"box": box})
    table = companion.table
    while table.game.phase == "A":
        args = table.game.expected()[0].args
        kind = "Infame" if (args["queue"], args["position"]) == (1, 1) else "Signora"
        table.submit(Command("reveal-kind", {**args, "kind": kind}))
    page = phone(phones, companion, lang)
    tap(page, "#dock button[data-command=effect]")
    expect(page.locator("#dock .br-kinds h2")).to_have_text(
        table.game.expected(lang)[0].prompt)
    scroll_to_the_end(page)
    assert in_sight(page, "#dock .persona-kind[data-kind=Signora]")
    tap(page, "#dock .persona-kind[data-kind=Signora]")
    pile = page.locator(".queue[data-queue='1'] .br-pile")
    expect(pile).to_have_attribute("title", board(lang, "on_top_of", name="Infame"))
    expect(pile.locator(".persona.covering")).to_have_count(1)
    assert table.game.phase == "E"
    assert page.script_errors == []
