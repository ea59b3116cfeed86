// The resource model's types, apart from the code that finds them
// (resources.ts), makes their ids (resource-ids.ts) and checks their
// references (resource-references.ts): each of those reads the others'
// types, and none imports another for them.

export type ItemRole = 'read' | 'replace' | 'merge' | 'delete';
export type ResourceRole = 'create' | 'list' | ItemRole;

/** A schema of the document and where it is. */
export interface Located {
  schema: unknown;
  pointer: string;
}

export interface Resource {
  /** The store's key of its items: '' for the plant resource, else the collection path with its parameters unnamed (`/gardens/{}/plants`). */
  key: string;
  /** Its noun, in the singular: the last literal segment of the collection path (`plant` for /gardens/{gardenId}/plants). */
  noun: string;
  collectionPath: string;
  /** The path of one item, where the document declares one. */
  itemPath: string | undefined;
  /** The path parameter that carries the id on the item operations. */
  idParameter: string | undefined;
  /** The collection path's parameters, outermost first: their values are the key of the items' parent. */
  scope: string[];
  /** The resource whose item path the collection path begins with. */
  parent: Resource | undefined;
  id: IdRule;
  /** What an item is: the create's success schema, else the read's, else the create's request body's. */
  item: Located;
  /** The create's request body schema, where a POST creates. */
  createBody: Located | undefined;
  /** Each operation on it (by pointer): its role, and why (the path's shape, or the create's links). */
  roles: Map<string, { role: ResourceRole; by: 'shape' | 'links' }>;
  /** Body members that name an item of another resource. */
  references: Reference[];
}

/** The resources of a document, and the plant resource among them (the one the stub's controls and initial plants fill). */
export interface ResourceModel {
  resources: Resource[];
  plants: Resource;
}

export interface IdRule {
  /** The body member that carries the id, where the item or the create's body declares one. */
  property: string | undefined;
  kind: 'integer' | 'string';
  /**
   * Who picks it: `client` (the create's body requires it, or a PUT names
   * it), `server` (the create's body does not declare it, or it is readOnly:
   * OpenAPI 3.1 §4.8.24.1, JSON Schema validation §9.4), `either` (the body
   * may carry it; the server makes one when it does not).
   */
  chosenBy: 'client' | 'server' | 'either';
  /**
   * What the id's schema accepts that the server refuses with 400 (an id of
   * kind `integer` is kept as its digits): fractions where it is `type:
   * number`, any other value where it states no type. Said at start.
   */
  unkept?: string;
  /** The schema a made id must fit: the id member's in the item, else the path parameter's. */
  schema: Located | undefined;
}

export interface Reference {
  /** The body member. */
  property: string;
  /** The resource whose item it names. */
  target: Resource;
  by: 'links' | 'names';
}
