// Section headings of an operation page: OperationPage renders them with these ids, and the
// site's table of contents lists them.
import { PARAMETER_LOCATIONS } from './model.ts';
import type { OperationPageModel, ParameterLocation } from './model.ts';

export interface OperationHeading {
  depth: 2 | 3;
  slug: string;
  text: string;
}

export const parametersId = (location: ParameterLocation): string => `${location}-parameters`;
export const responseId = (status: string): string => `response-${status.toLowerCase()}`;
export const parametersTitle = (location: ParameterLocation): string => `${location[0].toUpperCase()}${location.slice(1)} parameters`;

/** The headings OperationPage renders for `page`, in order. */
export function operationHeadings(page: OperationPageModel): OperationHeading[] {
  const headings: OperationHeading[] = [];
  if (page.playground) headings.push({ depth: 2, slug: 'try-it', text: 'Try it' });
  const locations = PARAMETER_LOCATIONS.filter((location) => page.parameters[location].length > 0);
  if (locations.length > 0) {
    headings.push({ depth: 2, slug: 'parameters', text: 'Parameters' });
    for (const location of locations) headings.push({ depth: 3, slug: parametersId(location), text: parametersTitle(location) });
  }
  if (page.requestBody) headings.push({ depth: 2, slug: 'request-body', text: 'Request body' });
  if (page.responses.length > 0) {
    headings.push({ depth: 2, slug: 'responses', text: 'Responses' });
    for (const response of page.responses) headings.push({ depth: 3, slug: responseId(response.status), text: response.status });
  }
  if (page.codeSamples.length > 0) headings.push({ depth: 2, slug: 'example-request', text: 'Example request' });
  return headings;
}
