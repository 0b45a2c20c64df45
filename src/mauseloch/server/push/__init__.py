"""Web Push: a seat's devices are told when it is their turn, before their time runs out, and
when the game ends (RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID, through pywebpush).

store.py keeps the subscriptions, the pending pushes and the server's VAPID key pair; vapid.py
makes or loads that key; words.py writes what a notification says (words and a link only);
sender.py is the bounded queue that sends them; routes.py the endpoints the page calls.
"""

VAPID_SUBJECT = "mailto:push@mauseloch.invalid"  # serve --vapid-subject: whom push services may write to
