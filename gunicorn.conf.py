"""gunicorn settings for every gunicorn started in this checkout (gunicorn reads ``./gunicorn.conf.py`` itself).

``make run``, the Procfile, the scale-out commands of docs/deploy.md and the tests all start gunicorn here.
"""

import gunicorn.http.wsgi as _wsgi

# Answers name no server software (OWASP ASVS 14.3.3): gunicorn writes "Server: gunicorn" on every answer and
# offers no setting for it, so the name it writes is replaced.
_wsgi.SERVER = "topcut"
