# Builds any Tablehall service from the repository root:
#   docker build -t tablehall .
#   docker run tablehall serve match
# The dev group (protoc, test tools, kubernetes-validate) is used to generate the
# protobuf code, then removed: the image carries only what the services run.
FROM python:3.11-slim AS build
RUN pip install --no-cache-dir uv
WORKDIR /app
COPY . .
RUN mkdir -p libs/protos/src/tablehall && touch libs/protos/src/tablehall/__init__.py \
 && UV_PYTHON_DOWNLOADS=never uv sync --frozen --python python3.11 \
 && PATH=/app/.venv/bin:$PATH .venv/bin/python -m grpc_tools.protoc -I proto \
      -I "$(.venv/bin/python -c 'import google.rpc, pathlib; print(pathlib.Path(google.rpc.__path__[0]).parents[1])')" \
      --python_out=libs/protos/src --grpc_python_out=libs/protos/src $(find proto -name '*.proto') \
 && find libs/protos/src/tablehall -type d -exec touch {}/__init__.py \; \
 && UV_PYTHON_DOWNLOADS=never uv sync --frozen --no-dev --python python3.11

FROM python:3.11-slim
WORKDIR /app
COPY --from=build /app /app
ENV PATH=/app/.venv/bin:$PATH TABLEHALL_HOST=0.0.0.0 TABLEHALL_DATA_DIR=/data TABLEHALL_SECRETS_DIR=/data/secrets
ENTRYPOINT ["tablehall"]
CMD ["up"]
