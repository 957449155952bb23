// Words a generated Python identifier must not be. Lists are data, kept here in one place so
// every name in every export goes through the same rules (quicktype's lesson).

const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

/** Keywords and soft keywords (3.10–3.13). */
export const PYTHON_KEYWORDS = words(`
  False None True and as assert async await break class continue def del elif else except finally
  for from global if import in is lambda nonlocal not or pass raise return try while with yield
  case match type _
`);

/** Builtins: shadowing them works but breaks code that later needs them. */
export const PYTHON_BUILTINS = words(`
  ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
  BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError
  ConnectionError ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis
  EncodingWarning EnvironmentError Exception ExceptionGroup False FileExistsError
  FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError
  ImportWarning IndentationError IndexError InterruptedError IsADirectoryError KeyError
  KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None NotADirectoryError
  NotImplemented NotImplementedError OSError OverflowError PendingDeprecationWarning
  PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError
  RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit
  TabError TimeoutError True TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError
  UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning
  ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
  classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit
  filter float format frozenset getattr globals hasattr hash help hex id input int isinstance
  issubclass iter len license list locals map max memoryview min next object oct open ord pow
  print property quit range repr reversed round set setattr slice sorted staticmethod str sum
  super tuple type vars zip
`);

/** Top-level standard-library modules (sys.stdlib_module_names, 3.11, public ones). */
export const PYTHON_STDLIB_MODULES = words(`
  abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb
  binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop
  collections colorsys compileall concurrent configparser contextlib contextvars copy copyreg
  crypt csv ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest email
  encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib
  functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html
  http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3
  linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib
  msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse
  os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix
  posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri
  random re readline reprlib resource rlcompleter runpy sched secrets select selectors shelve
  shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile
  sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau symtable
  sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time
  timeit tkinter token tokenize tomllib trace traceback tracemalloc tty turtle turtledemo types
  typing unicodedata unittest urllib uu uuid venv warnings wave weakref webbrowser winreg winsound
  wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo
`);

/**
 * Third-party modules a generated project imports or depends on; a package with one of these
 * names would shadow it. Also the test-runner and tool names that clash on `sys.path`.
 */
export const FRAMEWORK_MODULES = words(`
  crewai crewai_tools crewai_core crewai_cli langgraph langchain langchain_core langchain_anthropic
  langchain_openai langchain_google_genai langchain_mistralai langsmith litellm openai anthropic
  google mistralai pydantic pydantic_core pydantic_settings httpx requests dotenv yaml pytest
  _pytest ruff uv tests test conftest setuptools hatchling pip typing_extensions annotated_types
  instructor chromadb lancedb opentelemetry aiosqlite mcp tomli tomli_w json5 click rich
  sqlalchemy numpy pandas envelope
`);

/**
 * Member names generated classes and state objects already use (crew/flow/graph plumbing,
 * pydantic's BaseModel API). Every field name (a pydantic attribute) keeps clear of them; an
 * agent, step or gate only in the CrewAI target (its ExportTarget.reservedMembers), whose crew
 * class it becomes a method of.
 */
export const RESERVED_MEMBERS = words(`
  agents tasks crew crews flow state graph config agents_config tasks_config kickoff
  kickoff_async run resume main llm llms tools tool manager inputs outputs result results
  model_config model_fields model_computed_fields model_extra model_fields_set model_construct
  model_copy model_dump model_dump_json model_json_schema model_parametrized_name
  model_post_init model_rebuild model_validate model_validate_json model_validate_strings
  dict json parse_obj parse_raw parse_file schema schema_json construct copy validate
  update_forward_refs fields self cls
  handle_request agent_options team_task team_crew role_of step_crew configure
  review run_step step_context crews store reviewer lock verbose name description method
  persistence initial_state plot kickoff_async akickoff ask emit listen start router and_ or_
  managing base_directory load_configurations load_yaml map_all_agent_variables
  map_all_task_variables close_mcp_server get_mcp_tools mcp_server_params mcp_connect_timeout
  is_crew_class original_agents_config_path original_tasks_config_path
  llm_of tools_of memory values step_task steps_crew train test replay
  team prepare finalize package embedder deferred inputs_text
`);

/**
 * Distributions an exported project installs, directly or through its dependencies (every
 * name pinned in python/*.lock, and every package of the uv.lock data, python/*.uv-lock.json,
 * which has the other platforms' too; PEP 503-normalized), and the runtime library. A project
 * distributed under one of these names would replace that package on install, or depend on itself.
 */
export const DEPENDENCY_DISTRIBUTIONS = words(`
  hatchling pip wheel envelope-runtime
  async-timeout colorama coloredlogs exceptiongroup httpx2-jsfetch humanfriendly mpmath
  pyreadline3 pywin32 sympy
  langgraph-checkpoint-postgres psycopg psycopg-binary psycopg-pool greenlet sqlalchemy
  aiofiles aiohappyeyeballs aiohttp aiosignal aiosqlite annotated-doc annotated-types anthropic
  anyio appdirs attrs bcrypt blockbuster boto3 botocore build cel-python certifi cffi
  charset-normalizer chromadb click cloudpickle crewai crewai-cli crewai-core croniter
  cryptography deprecation distro docstring-parser durationpy et-xmlfile fastuuid filelock
  filetype flatbuffers forbiddenfruit frozenlist fsspec google-auth google-genai google-re2
  googleapis-common-protos grpcio grpcio-health-checking grpcio-tools h11 h2 hf-xet hpack
  httpcore httpcore2 httptools httpx httpx-sse httpx2 huggingface-hub hyperframe idna
  importlib-metadata importlib-resources iniconfig instructor jinja2 jiter jmespath json-repair
  json5 jsonpatch jsonpath-python jsonpointer jsonref jsonschema jsonschema-rs
  jsonschema-specifications kubernetes lance-namespace lance-namespace-urllib3-client lancedb
  langchain langchain-anthropic langchain-core langchain-google-genai langchain-mcp-adapters langchain-mistralai
  langchain-openai langchain-openrouter langchain-protocol langgraph langgraph-api
  langgraph-checkpoint langgraph-checkpoint-sqlite langgraph-cli langgraph-prebuilt
  langgraph-runtime-inmem langgraph-sdk langsmith lark linkify-it-py litellm markdown-it-py
  markupsafe mcp mdit-py-plugins mdurl mmh3 multidict numpy oauthlib onnxruntime openai openpyxl
  openrouter opentelemetry-api opentelemetry-exporter-http-transport
  opentelemetry-exporter-otlp-common opentelemetry-exporter-otlp-proto-common
  opentelemetry-exporter-otlp-proto-grpc opentelemetry-exporter-otlp-proto-http
  opentelemetry-exporter-prometheus opentelemetry-proto opentelemetry-sdk
  opentelemetry-semantic-conventions orjson ormsgpack overrides packaging pathspec pdfminer-six
  pdfplumber pendulum pillow platformdirs pluggy portalocker prometheus-client propcache protobuf
  pyarrow pyasn1 pyasn1-modules pybase64 pycparser pydantic pydantic-core pydantic-settings
  pygments pyjwt pypdfium2 pypika pyproject-hooks pytest python-dateutil python-dotenv
  python-multipart pyyaml referencing regex requests requests-oauthlib requests-toolbelt rich
  rpds-py ruff s3transfer setuptools shellingham six sniffio sqlite-vec sse-starlette starlette
  structlog tenacity textual tiktoken tokenizers tomli tomli-w tqdm truststore typer
  typing-extensions typing-inspection tzdata urllib3 uuid-utils uv uvicorn uvloop watchfiles
  websocket-client websockets xxhash yarl zipp zstandard
`);
