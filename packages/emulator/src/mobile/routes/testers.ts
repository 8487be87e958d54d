/** Testers, blocking, and the tester-group membership operations. */
import type { FastifyRequest } from 'fastify';
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { MobileStore } from '../store/index.ts';
import { actorOf } from '../actor.ts';
import { notFound } from '../errors.ts';
import { commaList, idParam } from '../format.ts';
import type { Group } from '../model.ts';
import { emailQuery, groupParams, testerListQuery, testerParams } from '../schemas.ts';
import { baseUrl, testerForBuild, testerListItem, testerSingle } from '../views.ts';
import { fieldsOf, requiredText, text, type Fields } from './body.ts';

/** Emails from the body, or from the query string (DELETE bodies are often dropped by clients). */
function emailsOf(request: FastifyRequest, query: Fields): string[] {
  const fields = { ...query, ...fieldsOf(request) };
  return commaList(requiredText(fields, 'email'));
}

function memberList(store: MobileStore, group: Group) {
  return store.groups.members(group).map((tester) => ({ email: tester.email }));
}

export function testerRoutes(app: SchemaTypedApp, store: MobileStore): void {
  const byTester = { schema: { params: testerParams } };
  const membership = { schema: { params: groupParams, querystring: emailQuery } };

  app.get('/api/1/testers', { schema: { querystring: testerListQuery } }, async (request) => {
    const buildIdText = request.query.buildId;
    if (buildIdText === undefined || buildIdText === '') {
      return { status: 'ok', testers: store.data.testers.map((tester) => testerListItem(store, tester)) };
    }
    const buildId = idParam('buildId', buildIdText);
    const build = store.data.builds.find((candidate) => candidate.id === buildId);
    if (!build) throw notFound(`build ${buildId}`);
    const base = baseUrl(request);
    return {
      status: 'ok',
      testers: store.data.testers.map((tester) => testerForBuild(base, store, tester, build)),
    };
  });

  app.post('/api/1/testers', async (request) => {
    const fields = fieldsOf(request);
    const group = text(fields, 'group')?.trim() || undefined;
    store.testers.add(actorOf(request), commaList(text(fields, 'email')), group);
    return { status: 'ok' };
  });

  app.get('/api/1/testers/:testerId', byTester, async (request) => {
    const tester = store.testers.get(idParam('tester-id', request.params.testerId));
    return { status: 'ok', tester: testerSingle(store, tester) };
  });

  app.post('/api/1/testers/:testerId/block', byTester, async (request) => {
    const tester = store.testers.get(idParam('tester-id', request.params.testerId));
    store.testers.setBlocked(actorOf(request), tester, true);
    return { status: 'ok' };
  });

  app.delete('/api/1/testers/:testerId/block', byTester, async (request) => {
    const tester = store.testers.get(idParam('tester-id', request.params.testerId));
    store.testers.setBlocked(actorOf(request), tester, false);
    return { status: 'ok' };
  });

  app.delete('/api/1/testers/:testerId', byTester, async (request) => {
    const tester = store.testers.get(idParam('tester-id', request.params.testerId));
    store.testers.delete(actorOf(request), tester);
    return { status: 'ok' };
  });

  app.get('/api/1/testers/groups', async () => ({
    status: 'ok',
    // The seed's shape: `testers` is an array holding one array of {email}.
    groups: store.data.groups.map((group) => ({
      id: group.id,
      name: group.name,
      testers: [memberList(store, group)],
    })),
  }));

  app.post('/api/1/testers/groups', async (request) => {
    const name = requiredText(fieldsOf(request), 'groupName');
    const group = store.groups.create(actorOf(request), name);
    return { status: 'ok', id: String(group.id), name: group.name };
  });

  app.post('/api/1/testers/groups/:groupId', membership, async (request) => {
    const group = store.groups.get(idParam('group-id', request.params.groupId));
    store.testers.addToGroup(actorOf(request), group, emailsOf(request, request.query));
    return { status: 'ok', testers: memberList(store, group) };
  });

  app.delete('/api/1/testers/groups/:groupId', membership, async (request) => {
    const group = store.groups.get(idParam('group-id', request.params.groupId));
    const emails = emailsOf(request, request.query).map((email) => email.toLowerCase());
    const ids = store.data.testers.filter((t) => emails.includes(t.email.toLowerCase())).map((t) => t.id);
    store.groups.removeMembers(actorOf(request), group, ids);
    return { status: 'ok', testers: memberList(store, group) };
  });
}
