import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RouteInternal } from '#shared/http/request-context';

/** A middleware of an HTTP pipeline over any event shape (REST API proxy events, Function URL events). */
export type HttpMiddleware<Event, Result> = middy.MiddlewareObj<Event, Result, Error, Context, RouteInternal>;

/** The type of every middleware in the API route pipeline. */
export type RouteMiddleware = HttpMiddleware<APIGatewayProxyEvent, APIGatewayProxyResult>;
