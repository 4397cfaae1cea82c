import ts from 'typescript';
import { join, relative } from 'node:path';

/**
 * Reads, with the TypeScript compiler, each `defineVerb({ ... })` under src/verbs: the parts its
 * `uses` declares and the parts its handler reaches (docs/architecture.md, "What each verb uses").
 * A handler reaches a part by naming it in its destructured parameter and reading that name,
 * by `ctx.part`, or by handing its context on to a function whose parameter type names the part.
 */
export interface VerbUse {
  file: string;
  name: string;
  /** The parts `uses` lists, in its order; null when the verb has no `uses`. */
  declared: string[] | null;
  /** The parts the handler reaches, in the House's order. */
  reached: string[];
  /** Where the handler's context goes somewhere this reading cannot follow (a spread, a stored alias). */
  unread: string[];
}

/** The parts of the house, read from src/verbs/house.ts's House interface, in its order. */
export function houseParts(program: ts.Program, root: string): string[] {
  const source = program.getSourceFile(join(root, 'src/verbs/house.ts'));
  if (source === undefined) throw new Error('src/verbs/house.ts is not in the program');
  const house = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'House');
  if (house === undefined) throw new Error('src/verbs/house.ts declares no House');
  return house.members.flatMap((m) => (m.name !== undefined && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

/** The gate's program as tsconfig.json builds it. */
export function gateProgram(root: string): ts.Program {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
}

function propertyNamed(literal: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  return literal.properties.find((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === name);
}

function handlerFunction(literal: ts.ObjectLiteralExpression): ts.SignatureDeclaration | undefined {
  const handler = propertyNamed(literal, 'handler');
  if (handler === undefined) return undefined;
  if (ts.isMethodDeclaration(handler)) return handler;
  if (ts.isPropertyAssignment(handler) && (ts.isArrowFunction(handler.initializer) || ts.isFunctionExpression(handler.initializer))) {
    return handler.initializer;
  }
  return undefined;
}

function declaredUses(literal: ts.ObjectLiteralExpression): string[] | null {
  const uses = propertyNamed(literal, 'uses');
  if (uses === undefined || !ts.isPropertyAssignment(uses)) return null;
  let list = uses.initializer;
  while (ts.isAsExpression(list) || ts.isSatisfiesExpression(list)) list = list.expression;
  if (!ts.isArrayLiteralExpression(list)) throw new Error(`uses is not an array literal: ${uses.getText()}`);
  return list.elements.map((e) => {
    if (!ts.isStringLiteral(e)) throw new Error(`uses lists something other than a part's name: ${e.getText()}`);
    return e.text;
  });
}

/** Every identifier in `body` that names `symbol`. */
function referencesTo(checker: ts.TypeChecker, body: ts.Node, symbol: ts.Symbol): ts.Identifier[] {
  const found: ts.Identifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const at = ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
        ? checker.getShorthandAssignmentValueSymbol(node.parent)
        : checker.getSymbolAtLocation(node);
      if (at === symbol) found.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

/** The parts a whole context reaches where it is used as `use` (a `ctx.part`, or an argument). */
function partsAt(checker: ts.TypeChecker, use: ts.Identifier, parts: ReadonlySet<string>): string[] | null {
  const parent = use.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === use) return parts.has(parent.name.text) ? [parent.name.text] : [];
  if (ts.isCallExpression(parent) && parent.arguments.includes(use)) {
    const taken = checker.getContextualType(use);
    if (taken === undefined) return null;
    return checker.getPropertiesOfType(taken).map((p) => p.name).filter((n) => parts.has(n));
  }
  return null;
}

/** The parts a destructuring of the context names and `body` then reads. */
function boundParts(
  checker: ts.TypeChecker,
  pattern: ts.ObjectBindingPattern,
  body: ts.Node,
  parts: ReadonlySet<string>,
  reached: Set<string>,
  unread: string[],
): void {
  for (const element of pattern.elements) {
    if (element.dotDotDotToken !== undefined || !ts.isIdentifier(element.name)) {
      unread.push(element.getText());
      continue;
    }
    const part = element.propertyName !== undefined && ts.isIdentifier(element.propertyName) ? element.propertyName.text : element.name.text;
    if (!parts.has(part)) continue;
    const symbol = checker.getSymbolAtLocation(element.name);
    if (symbol !== undefined && referencesTo(checker, body, symbol).some((r) => r !== element.name)) reached.add(part);
  }
}

function handlerUse(checker: ts.TypeChecker, handler: ts.SignatureDeclaration, parts: ReadonlySet<string>): { reached: Set<string>; unread: string[] } {
  const reached = new Set<string>();
  const unread: string[] = [];
  const context = handler.parameters[0];
  const body = (handler as ts.FunctionLikeDeclaration).body;
  if (context === undefined || body === undefined) return { reached, unread };
  if (ts.isObjectBindingPattern(context.name)) {
    boundParts(checker, context.name, body, parts, reached, unread);
  } else if (ts.isIdentifier(context.name)) {
    const symbol = checker.getSymbolAtLocation(context.name);
    for (const use of symbol === undefined ? [] : referencesTo(checker, body, symbol)) {
      const parent = use.parent;
      if (ts.isVariableDeclaration(parent) && parent.initializer === use && ts.isObjectBindingPattern(parent.name)) {
        boundParts(checker, parent.name, body, parts, reached, unread);
        continue;
      }
      const at = partsAt(checker, use, parts);
      if (at === null) unread.push(parent.getText());
      else for (const part of at) reached.add(part);
    }
  } else {
    unread.push(context.getText());
  }
  return { reached, unread };
}

/** Each verb declared with defineVerb under src/verbs (or in `only`, when given), its declared and reached parts. */
export function verbUses(program: ts.Program, root: string, only?: string): VerbUse[] {
  const checker = program.getTypeChecker();
  const order = houseParts(program, root);
  const parts = new Set(order);
  const verbs: VerbUse[] = [];
  for (const source of program.getSourceFiles()) {
    const file = relative(root, source.fileName);
    if (only !== undefined ? file !== only : !file.startsWith('src/verbs/')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineVerb') {
        const literal = node.arguments[0];
        if (literal === undefined || !ts.isObjectLiteralExpression(literal)) throw new Error(`${file}: defineVerb takes an object literal`);
        const name = propertyNamed(literal, 'name');
        if (name === undefined || !ts.isPropertyAssignment(name) || !ts.isStringLiteral(name.initializer)) {
          throw new Error(`${file}: a defineVerb without a literal name`);
        }
        const handler = handlerFunction(literal);
        if (handler === undefined) throw new Error(`${file}: ${name.initializer.text} has no handler this reading knows`);
        const { reached, unread } = handlerUse(checker, handler, parts);
        verbs.push({
          file,
          name: name.initializer.text,
          declared: declaredUses(literal),
          reached: order.filter((p) => reached.has(p)),
          unread,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return verbs;
}

/** A function under src/verbs that takes a context's parts, and the parts its type names and its body reaches. */
export interface HelperUse {
  file: string;
  /** Where it is, as `file:line name`. */
  at: string;
  declared: string[];
  reached: string[];
  unread: string[];
}

function functionName(fn: ts.SignatureDeclaration): string {
  if (fn.name !== undefined) return fn.name.getText();
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

const isVerbContext = (type: ts.TypeNode | undefined) =>
  type !== undefined && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'VerbContext';

/** A parameter type that is a context or some of its parts: `VerbContext<...>` or `Pick<VerbContext, ...>`. */
function takesContext(type: ts.TypeNode): boolean {
  if (isVerbContext(type)) return true;
  return ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Pick' && isVerbContext(type.typeArguments?.[0]);
}

/**
 * Each function under src/verbs (or in `only`) whose first parameter is typed by VerbContext
 * (`VerbContext<'store'>`, `Pick<VerbContext, 'caller' | 'auth'>`): the parts that type names,
 * and the parts its body reaches, read as a handler's are.
 */
export function helperUses(program: ts.Program, root: string, only?: string): HelperUse[] {
  const checker = program.getTypeChecker();
  const order = houseParts(program, root);
  const parts = new Set(order);
  const helpers: HelperUse[] = [];
  for (const source of program.getSourceFiles()) {
    const file = relative(root, source.fileName);
    if (only !== undefined ? file !== only : !file.startsWith('src/verbs/')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) {
        const context = node.parameters[0];
        if (context?.type !== undefined && takesContext(context.type)) {
          const declared = checker.getPropertiesOfType(checker.getTypeFromTypeNode(context.type)).map((p) => p.name);
          const { reached, unread } = handlerUse(checker, node, parts);
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          helpers.push({
            file,
            at: `${file}:${line} ${functionName(node)}`,
            declared: order.filter((p) => declared.includes(p)),
            reached: order.filter((p) => reached.has(p)),
            unread,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return helpers;
}
