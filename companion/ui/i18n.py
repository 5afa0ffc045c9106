"""Every word the screens show, in French (the games' own language) and English.

Scenes never write a visible string themselves: they call ``tr(key, **values)``. Game
titles are proper names and come from the registry untranslated. A test checks that both
tables have the same keys and the same ``{placeholders}``.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

FR: dict[str, str] = {
    "app.title": "Table Companion",
    "app.subtitle": "L'arbitre de vos soirées jeux",
    "home.games": "Jeux",
    "home.soon": "bientôt",
    "home.play": "Jouer",
    "home.resume": "Reprendre",
    "home.resume_detail": "{game} · {date}",
    "home.history": "Historique",
    "home.settings": "Réglages",
    "home.devices": "Caméra et boutons",
    "home.game_soon": "{game} arrive bientôt : son arbitre n'est pas encore prêt.",
    "home.game_no_scene": "{game} est prêt, mais son écran de partie arrive bientôt.",
    "home.journal_problem": "Journal illisible : {message}",
    "button.yes": "OUI",
    "button.no": "NON",
    "button.detector": "DÉTECTEUR",
    "button.undo": "ANNULER",
    "strip.camera": "Caméra",
    "strip.camera_wait": "Caméra : en attente d'image…",
    "strip.camera_ok": "Caméra : {name}",
    "strip.camera_problem": "Caméra : {message}",
    "strip.last_button": "Dernier bouton : {button}",
    "strip.no_button": "Appuyez sur un bouton pour l'essayer",
    "common.back": "Retour",
    "common.previous": "Précédent",
    "common.next": "Suivant",
    "common.page": "Page {page} / {pages}",
    "common.on": "Oui",
    "common.off": "Non",
    "history.title": "Historique des parties",
    "history.empty": "Aucune partie terminée pour l'instant.",
    "history.players": "{players}",
    "history.players_won": "{players} · gagné par {winners}",
    "history.no_players": "sans joueur",
    "history.finished": "terminée",
    "history.abandoned": "abandonnée",
    "history.playing": "en cours",
    "history.events": "{count} coups",
    "settings.title": "Réglages",
    "settings.language": "Langue",
    "settings.language_value": "Français",
    "settings.sound": "Tout le son",
    "settings.saved": "Enregistré dans {path}",
    "settings.not_saved": "Gardé jusqu'au prochain redémarrage ({message})",
    "resume.title": "Reprendre la partie",
    "resume.ok": "{game} reprise au coup {state}.",
    "resume.no_scene": "L'écran de partie de {game} arrive bientôt ; la partie reste "
    "enregistrée dans le journal.",
    "resume.unknown_game": "Cette partie de « {game} » ne peut pas être reprise : ce jeu "
    "n'existe pas dans cette version du Table Companion.",
    "resume.problem": "La partie ne peut pas être reprise : {message}",
    "resume.abandon": "Abandonner cette partie",
    "resume.abandoned": "Partie abandonnée : elle reste dans l'historique.",
    "failsafe.title": "Oups, un petit souci",
    "failsafe.body": "L'écran a rencontré un problème. Rien n'est perdu : chaque coup "
    "est enregistré dans le journal.",
    "failsafe.continue": "Continuer depuis le journal",
    "failsafe.detail": "Détails pour le réparateur : {where} (voir le journal système).",
    "devices.title": "Vérifier la caméra et les boutons",
    "devices.press_hint": "Appuyez sur chaque bouton : il s'allume ici.",
    "devices.buttons": "Boutons : {kind}",
    "devices.buzzer": "Buzzer : {kind}",
    "devices.camera": "Caméra : {name}",
    "devices.frames": "{count} images · {width}×{height}",
    "devices.no_frame": "Pas encore d'image",
    "devices.beep": "Tester le buzzer",
    "devices.roll": "Nouveau lancer",
    "devices.presses": "Appuis : {count}",
    "kind.simulated": "simulés (clavier Y N D U)",
    "kind.real": "GPIO",
    "kind.none": "aucun",
    "kind.active": "actif",
    "kind.passive": "passif (mélodies)",
    "demo.keys": "Démo : Y N D U = boutons · R = lancer · Q = quitter",
}

EN: dict[str, str] = {
    "app.title": "Table Companion",
    "app.subtitle": "The referee for your game nights",
    "home.games": "Games",
    "home.soon": "coming soon",
    "home.play": "Play",
    "home.resume": "Resume",
    "home.resume_detail": "{game} · {date}",
    "home.history": "History",
    "home.settings": "Settings",
    "home.devices": "Camera & buttons",
    "home.game_soon": "{game} is coming soon: its referee is not ready yet.",
    "home.game_no_scene": "{game} is ready, but its game screen is coming soon.",
    "home.journal_problem": "Journal unreadable: {message}",
    "button.yes": "YES",
    "button.no": "NO",
    "button.detector": "DETECTOR",
    "button.undo": "UNDO",
    "strip.camera": "Camera",
    "strip.camera_wait": "Camera: waiting for a picture…",
    "strip.camera_ok": "Camera: {name}",
    "strip.camera_problem": "Camera: {message}",
    "strip.last_button": "Last button: {button}",
    "strip.no_button": "Press a button to try it",
    "common.back": "Back",
    "common.previous": "Previous",
    "common.next": "Next",
    "common.page": "Page {page} / {pages}",
    "common.on": "On",
    "common.off": "Off",
    "history.title": "Game history",
    "history.empty": "No finished game yet.",
    "history.players": "{players}",
    "history.players_won": "{players} · won by {winners}",
    "history.no_players": "no players",
    "history.finished": "finished",
    "history.abandoned": "abandoned",
    "history.playing": "in progress",
    "history.events": "{count} moves",
    "settings.title": "Settings",
    "settings.language": "Language",
    "settings.language_value": "English",
    "settings.sound": "All sound",
    "settings.saved": "Saved to {path}",
    "settings.not_saved": "Kept until the next restart ({message})",
    "resume.title": "Resume the game",
    "resume.ok": "{game} resumed at move {state}.",
    "resume.no_scene": "The game screen for {game} is coming soon; the game stays saved "
    "in the journal.",
    "resume.unknown_game": "This game of \u201c{game}\u201d cannot be resumed: that game does "
    "not exist in this version of Table Companion.",
    "resume.problem": "The game cannot be resumed: {message}",
    "resume.abandon": "Abandon this game",
    "resume.abandoned": "Game abandoned: it stays in the history.",
    "failsafe.title": "Oops, a small hiccup",
    "failsafe.body": "The screen ran into a problem. Nothing is lost: every move is saved "
    "in the journal.",
    "failsafe.continue": "Continue from the journal",
    "failsafe.detail": "Details for the repairer: {where} (see the system log).",
    "devices.title": "Check the camera and buttons",
    "devices.press_hint": "Press each button: it lights up here.",
    "devices.buttons": "Buttons: {kind}",
    "devices.buzzer": "Buzzer: {kind}",
    "devices.camera": "Camera: {name}",
    "devices.frames": "{count} frames · {width}×{height}",
    "devices.no_frame": "No picture yet",
    "devices.beep": "Test the buzzer",
    "devices.roll": "New roll",
    "devices.presses": "Presses: {count}",
    "kind.simulated": "simulated (keyboard Y N D U)",
    "kind.real": "GPIO",
    "kind.none": "none",
    "kind.active": "active",
    "kind.passive": "passive (melodies)",
    "demo.keys": "Demo: Y N D U = buttons · R = roll · Q = quit",
}

def _merge_parts() -> None:
    """Each feature keeps its own words in companion/ui/words/<part>.py (FR and EN dicts)."""
    from .words import PARTS

    for part in PARTS:
        for table, extra in ((FR, part.FR), (EN, part.EN)):
            clash = set(table) & set(extra)
            if clash:
                raise RuntimeError(f"{part.__name__} redefines {sorted(clash)}")
            table.update(extra)


_merge_parts()

TABLES: Mapping[str, Mapping[str, str]] = {"fr": FR, "en": EN}
LANGUAGES = tuple(TABLES)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Translator:
    """``tr(key, **values)`` in the current language; the language can change live."""

    def __init__(self, language: str = "fr") -> None:
        self.language = language

    @property
    def language(self) -> str:
        return self._language

    @language.setter
    def language(self, value: str) -> None:
        if value not in TABLES:
            raise ValueError(f"unknown language {value!r}; expected one of {LANGUAGES}")
        self._language = value

    def __call__(self, key: str, **values: object) -> str:
        text = TABLES[self._language].get(key)
        if text is None:  # a missing key shows itself instead of crashing a scene
            text = EN.get(key, key)
        return text.format(**values) if values else text


def t(key: str, language: str = "fr", **values: object) -> str:
    """One string in ``language`` (for code outside a scene)."""
    return Translator(language)(key, **values)
