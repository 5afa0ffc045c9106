"""Words of the settings screens (French first: the games' own language)."""

from __future__ import annotations

FR: dict[str, str] = {
    # the tabs
    "settings2.tab.screen": "Général",
    "settings2.tab.sound": "Son",
    "settings2.tab.camera": "Caméra",
    "settings2.tab.board": "Plateau",
    # language and screen
    "settings2.rotation": "Écran",
    "settings2.rotation.0": "Normal",
    "settings2.rotation.180": "Retourné",
    "settings2.rotation_hint": "« Retourné » : pour un écran monté la tête en bas (180°).",
    "settings2.file": "Réglages enregistrés dans {path}",
    # sound
    "settings2.speaker": "Haut-parleur",
    "settings2.no_speaker": "aucun trouvé",
    "settings2.speaker_missing": "Aucun haut-parleur trouvé ; le réglage servira au prochain "
                                 "démarrage.",
    "settings2.volume": "Volume : {percent} %",
    "settings2.test": "Essayer",
    "settings2.buzzer": "Buzzer",
    "settings2.buzzer.active": "Actif",
    "settings2.buzzer.passive": "Passif",
    "settings2.buzzer.none": "Aucun",
    "settings2.buzzer_next_start": "Le buzzer changera au prochain démarrage.",
    "settings2.buzzer_failed": "Buzzer impossible à préparer ({message}) ; il reste muet.",
    "settings2.muted_all": "Tout le son est coupé (onglet Général) : ni buzzer ni "
                           "haut-parleur.",
    "settings2.muted": "coupé partout",
    "settings2.sound_off": "Son coupé : ni buzzer ni haut-parleur.",
    "settings2.sound_hint": "Le haut-parleur joue les mêmes signaux que le buzzer. "
                            "« Aucun » : buzzer muet, le haut-parleur joue encore.",
    # camera
    "settings2.camera": "Source",
    "settings2.camera.auto": "Automatique",
    "settings2.camera.picamera": "Caméra du Pi",
    "settings2.camera.webcam": "Webcam",
    "settings2.camera.webcam:1": "Webcam 2",
    "settings2.camera.synthetic": "Dés simulés",
    "settings2.camera_other": "Dans le fichier : {value}",
    "settings2.camera_next_start": "La source choisie sert au prochain démarrage.\n"
                                   "Caméra en service : {name}",
    "settings2.camera_check": "Vérifier la caméra (image en direct)",
    # board
    "settings2.board": "Plateau du Docte Rat",
    "settings2.board_standard": "Plateau standard",
    "settings2.board_folder": "Ajoutez vos plateaux (.txt) dans : {path}",
    "settings2.board_none": "Aucun fichier .txt dans ce dossier pour l'instant.",
    "settings2.board_ok": "Plateau « {name} » : {spaces} cases, vérifié.",
    "settings2.board_bad": "Ce plateau a une erreur, il n'est pas choisi :",
    "settings2.board_current_bad": "Le plateau choisi a une erreur ; corrigez le fichier "
                                   "ou choisissez-en un autre :",
}

EN: dict[str, str] = {
    "settings2.tab.screen": "General",
    "settings2.tab.sound": "Sound",
    "settings2.tab.camera": "Camera",
    "settings2.tab.board": "Board",
    "settings2.rotation": "Screen",
    "settings2.rotation.0": "Normal",
    "settings2.rotation.180": "Upside down",
    "settings2.rotation_hint": "“Upside down”: for a screen mounted upside down (180°).",
    "settings2.file": "Settings saved in {path}",
    "settings2.speaker": "Speaker",
    "settings2.no_speaker": "none found",
    "settings2.speaker_missing": "No speaker found; the setting will apply at the next start.",
    "settings2.volume": "Volume: {percent} %",
    "settings2.test": "Try it",
    "settings2.buzzer": "Buzzer",
    "settings2.buzzer.active": "Active",
    "settings2.buzzer.passive": "Passive",
    "settings2.buzzer.none": "None",
    "settings2.buzzer_next_start": "The buzzer will change at the next start.",
    "settings2.buzzer_failed": "The buzzer could not be set up ({message}); it stays silent.",
    "settings2.muted_all": "All sound is off (General tab): neither buzzer nor speaker.",
    "settings2.muted": "off everywhere",
    "settings2.sound_off": "Sound off: neither buzzer nor speaker.",
    "settings2.sound_hint": "The speaker plays the same signals as the buzzer. "
                            "“None”: the buzzer is silent, the speaker still plays.",
    "settings2.camera": "Source",
    "settings2.camera.auto": "Automatic",
    "settings2.camera.picamera": "Pi camera",
    "settings2.camera.webcam": "Webcam",
    "settings2.camera.webcam:1": "Webcam 2",
    "settings2.camera.synthetic": "Simulated dice",
    "settings2.camera_other": "In the file: {value}",
    "settings2.camera_next_start": "The chosen source applies at the next start.\n"
                                   "Camera in use: {name}",
    "settings2.camera_check": "Check the camera (live picture)",
    "settings2.board": "Le Docte Rat board",
    "settings2.board_standard": "Standard board",
    "settings2.board_folder": "Put your own boards (.txt) in: {path}",
    "settings2.board_none": "No .txt file in that folder yet.",
    "settings2.board_ok": "Board “{name}”: {spaces} spaces, checked.",
    "settings2.board_bad": "This board has a mistake, it is not chosen:",
    "settings2.board_current_bad": "The chosen board has a mistake; fix the file or choose "
                                   "another:",
}
