"""gunicorn settings for every gunicorn started in this checkout (gunicorn reads ``./gunicorn.conf.py`` itself).

``make run``, the Procfile, the scale-out commands of docs/deploy.md and the tests all start gunicorn here.
"""

import gunicorn.http.wsgi as _wsgi

# Answers name no server software (OWASP ASVS 14.3.3): gunicorn writes "Server: gunicorn" on every answer and
# offers no setting for it, so the name it writes is replaced.
_wsgi.SERVER = "topcut"

# No control socket (gunicorn 25.1+): nothing here uses it, and it is one per user (~/.gunicorn/gunicorn.ctl), so
# two servers on one machine (make run's HTTP and hall HTTPS, app servers of a scale-out) would contend for it.
control_socket_disable = True
