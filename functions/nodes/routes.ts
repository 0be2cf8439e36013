import * as z from 'zod';
import { orgPath } from '#lib/ids';
import { attributeResponse, emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import {
  getNodesResponse,
  node,
  nodePolicy,
  oneProperty,
  prop,
  propertiesAndConstraints,
  regService,
  userInputService,
} from './responses.ts';
import {
  getNodeQuery,
  listNodesQuery,
  nodePath,
  noHeartbeatQuery,
  patchNodeBody,
  putNodeBody,
  putNodePolicyBody,
} from './schemas.ts';

const oneNode = 'The owning user, org admins, root and the node itself';

/** Nodes and node policies (reference §11.1–§11.6). */
export const nodesRoutes = routeList({
  folder: 'nodes',
  mounts: ['/v1/orgs/{organization}/nodes', '/v1/orgs/{organization}/nodes/{proxy+}'],
  tag: 'nodes',
  description: 'Edge nodes and their policies',
  components: {
    Node: node,
    GetNodesResponse: getNodesResponse,
    RegService: regService,
    Prop: prop,
    OneUserInputService: userInputService,
    NodePolicy: nodePolicy,
    OneProperty: oneProperty,
    PropertiesAndConstraints: propertiesAndConstraints,
  },
  requests: {
    PutNodeRequest: putNodeBody,
    PatchNodeRequest: patchNodeBody,
    PutNodePolicyRequest: putNodePolicyBody,
  },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes',
      operationId: 'listNodes',
      handler: 'nodes/list-nodes',
      summary: 'The nodes of an organization',
      description:
        'Users (their own nodes), org admins, root, agbots of the org. Filters: `%` is a wildcard.',
      request: { path: orgPath, query: listNodesQuery },
      responses: {
        200: { description: 'nodes by `org/id`', schema: getNodesResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getNodesResponse),
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes/{node}',
      operationId: 'getNode',
      handler: 'nodes/get-node',
      summary: 'One node, or one of its attributes',
      description: `${oneNode}, and agbots of the org.`,
      request: { path: nodePath, query: getNodeQuery },
      responses: {
        200: {
          description: 'the node, or `{attribute, value}` with `?attribute=`',
          schema: z.union([getNodesResponse, attributeResponse]),
        },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/nodes/{node}',
      operationId: 'putNode',
      handler: 'nodes/put-node',
      summary: 'Create or replace a node',
      description: `${oneNode}; any user of the org creates one (and owns it).`,
      request: { path: nodePath, query: noHeartbeatQuery, body: putNodeBody },
      responses: { 201: okResponse('created or replaced'), ...errors(400, 401, 403, 404, 409) },
    },
    {
      method: 'PATCH',
      path: '/v1/orgs/{organization}/nodes/{node}',
      operationId: 'patchNode',
      handler: 'nodes/patch-node',
      summary: 'Change one attribute of a node',
      description: `${oneNode}. Exactly one attribute.`,
      request: { path: nodePath, body: patchNodeBody },
      responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404, 409) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/nodes/{node}',
      operationId: 'deleteNode',
      handler: 'nodes/delete-node',
      summary: 'Delete a node with its policy',
      description: `${oneNode}.`,
      request: { path: nodePath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404, 409) },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/nodes/{node}/heartbeat',
      operationId: 'postNodeHeartbeat',
      handler: 'nodes/post-heartbeat',
      summary: "Refresh the node's lastHeartbeat",
      description: `${oneNode}.`,
      request: { path: nodePath },
      responses: { 201: okResponse('refreshed'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes/{node}/policy',
      operationId: 'getNodePolicy',
      handler: 'nodes/get-node-policy',
      summary: "The node's policy",
      description: `${oneNode}, and agbots of the org.`,
      request: { path: nodePath },
      responses: { 200: { description: 'the policy', schema: nodePolicy }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/nodes/{node}/policy',
      operationId: 'putNodePolicy',
      handler: 'nodes/put-node-policy',
      summary: "Create or replace the node's policy",
      description: `${oneNode}.`,
      request: { path: nodePath, query: noHeartbeatQuery, body: putNodePolicyBody },
      responses: { 201: okResponse('stored'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/nodes/{node}/policy',
      operationId: 'deleteNodePolicy',
      handler: 'nodes/delete-node-policy',
      summary: "Delete the node's policy",
      description: `${oneNode}.`,
      request: { path: nodePath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
