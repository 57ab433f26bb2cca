/**
 * A reader of the proto3 subset Google's API definitions use (messages, nested messages and enums,
 * oneofs, maps, `optional`/`repeated`, field options), for refresh-specs.mjs: it turns the
 * Generative Language API's .proto files into plain descriptors (JSON), which
 * ../schemas/proto.mjs turns into JSON Schema. Services, rpcs and file options are skipped.
 */

/** Tokens of a .proto file: comments dropped, strings kept whole. */
function tokenize(text) {
  const tokens = [];
  const pattern =
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[A-Za-z_][\w.]*|-?\d[\w.]*|\S/g;
  for (const match of text.matchAll(pattern)) {
    if (!match[0].startsWith('//') && !match[0].startsWith('/*')) tokens.push(match[0]);
  }
  return tokens;
}

/** The balanced tokens from an opening bracket to its closing one (both consumed). */
function skipBalanced(tokens, at, open, close) {
  let depth = 0;
  for (let i = at; i < tokens.length; i++) {
    if (tokens[i] === open) depth++;
    else if (tokens[i] === close && --depth === 0) return i + 1;
  }
  throw new Error(`proto: unbalanced ${open}`);
}

/** Field options `[a = b, (c) = D]` read into { jsonName, behaviors }. */
function readOptions(tokens, at) {
  const end = skipBalanced(tokens, at, '[', ']');
  const inner = tokens.slice(at + 1, end - 1).join(' ');
  const jsonName = /json_name = "([^"]*)"/.exec(inner)?.[1] ?? null;
  const behaviors = [...inner.matchAll(/\( google\.api\.field_behavior \) = (\w+)/g)].map((m) => m[1]);
  return { end, jsonName, behaviors };
}

function lowerCamel(name) {
  return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

function parseEnum(tokens, at, scope, out) {
  const name = tokens[at + 1];
  const values = [];
  let i = at + 3;
  while (tokens[i] !== '}') {
    if (tokens[i] === 'option' || tokens[i] === 'reserved') {
      while (tokens[i] !== ';') i++;
      i++;
      continue;
    }
    values.push(tokens[i]);
    i += 3; // NAME = N
    if (tokens[i] === '[') i = skipBalanced(tokens, i, '[', ']');
    i++; // ;
  }
  out.enums[`${scope}.${name}`] = values;
  return i + 1;
}

function parseField(tokens, at, oneof) {
  let i = at;
  let label = null;
  if (tokens[i] === 'optional' || tokens[i] === 'repeated') label = tokens[i++];
  let type;
  let mapKey = null;
  if (tokens[i] === 'map') {
    mapKey = tokens[i + 2];
    type = tokens[i + 4];
    i += 6;
  } else {
    type = tokens[i++];
  }
  const name = tokens[i];
  i += 3; // name = N
  let jsonName = lowerCamel(name);
  let behaviors = [];
  if (tokens[i] === '[') {
    const options = readOptions(tokens, i);
    i = options.end;
    if (options.jsonName) jsonName = options.jsonName;
    behaviors = options.behaviors;
  }
  const field = { name, jsonName, type, repeated: label === 'repeated', behaviors };
  if (mapKey) field.mapKey = mapKey;
  if (oneof) field.oneof = oneof;
  return { field, end: i + 1 };
}

function parseMessage(tokens, at, scope, out) {
  const name = tokens[at + 1];
  const full = `${scope}.${name}`;
  const message = { fields: [] };
  out.messages[full] = message;
  let i = at + 3;
  let oneof = null;
  while (true) {
    const token = tokens[i];
    if (token === '}') {
      if (oneof) {
        oneof = null;
        i++;
        continue;
      }
      return i + 1;
    }
    if (token === 'message') i = parseMessage(tokens, i, full, out);
    else if (token === 'enum') i = parseEnum(tokens, i, full, out);
    else if (token === 'oneof') {
      oneof = tokens[i + 1];
      i += 3;
    } else if (token === 'option' || token === 'reserved' || token === 'extensions') {
      while (tokens[i] !== ';') i++;
      i++;
    } else if (token === ';') i++;
    else {
      const { field, end } = parseField(tokens, i, oneof);
      message.fields.push(field);
      i = end;
    }
  }
}

/**
 * A service's rpcs with their REST binding: request and response message, the primary path
 * template, and the request fields the path carries (they are not part of the body).
 */
function parseService(tokens, at, pkg, out) {
  const end = skipBalanced(tokens, tokens.indexOf('{', at), '{', '}');
  for (let i = at; i < end; i++) {
    if (tokens[i] !== 'rpc') continue;
    const name = tokens[i + 1];
    const request = tokens[i + 3];
    const stream = tokens[i + 7] === 'stream';
    const response = tokens[stream ? i + 8 : i + 7];
    const bodyEnd = tokens.indexOf('rpc', i + 1) === -1 ? end : Math.min(end, tokens.indexOf('rpc', i + 1));
    const post = tokens
      .slice(i, bodyEnd)
      .findIndex((token, k, all) => token === 'post' && all[k + 1] === ':');
    if (post === -1) continue;
    const path = JSON.parse(tokens[i + post + 2]);
    const pathFields = [...path.matchAll(/\{(\w+)(=[^}]*)?\}/g)].map((m) => m[1]);
    out.rpcs[name] = {
      request: `${pkg}.${request}`,
      response: `${pkg}.${response}`,
      stream,
      path,
      pathFields,
    };
  }
  return end;
}

/** Parses one .proto file's messages, enums and rpcs into `out` ({ messages, enums, rpcs }), names fully qualified. */
export function parseProto(text, out) {
  const tokens = tokenize(text);
  let pkg = '';
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i];
    if (token === 'package') {
      pkg = tokens[i + 1];
      i += 3;
    } else if (token === 'message') i = parseMessage(tokens, i, pkg, out);
    else if (token === 'enum') i = parseEnum(tokens, i, pkg, out);
    else if (token === 'service') i = parseService(tokens, i, pkg, out);
    else if (token === 'option' || token === 'import' || token === 'syntax') {
      while (tokens[i] !== ';') i++;
      i++;
    } else i++;
  }
  return out;
}

/**
 * The fully qualified name a field's type refers to, searched as protoc does: from the
 * innermost enclosing scope outwards. Scalars and unknown names come back as written.
 */
export function resolveType(type, scope, known) {
  if (type.startsWith('.')) return type.slice(1);
  const parts = scope.split('.');
  for (let n = parts.length; n >= 0; n--) {
    const candidate = [...parts.slice(0, n), type].join('.');
    if (known(candidate)) return candidate;
  }
  return type;
}
