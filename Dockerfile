# The scorekeeper app under gunicorn (docs/deploy.md). Migrations are a separate step:
# `docker compose run --rm migrate`, or `scorekeeper migrate` in this image.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --system --create-home --home-dir /home/scorekeeper scorekeeper

WORKDIR /src
COPY pyproject.toml README.md ./
COPY scorekeeper ./scorekeeper
COPY templates ./templates
COPY static ./static
RUN pip install . && rm -rf /src

USER scorekeeper
WORKDIR /home/scorekeeper
EXPOSE 8000

# Four workers of four threads; SIGTERM lets each finish what it holds (30 s at most);
# each worker freezes what it built before serving (scorekeeper/gunicorn_conf.py).
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "4", "--worker-class", "gthread", \
     "--threads", "4", "--graceful-timeout", "30", "--access-logfile", "-", \
     "--config", "python:scorekeeper.gunicorn_conf", "scorekeeper.web:create_app()"]

HEALTHCHECK --interval=30s --timeout=3s \
    CMD ["python", "-c", "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2).status != 200)"]
