import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RouteInternal } from '#shared/http/request-context';

/** The type of every middleware in the API route pipeline. */
export type RouteMiddleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RouteInternal>;
