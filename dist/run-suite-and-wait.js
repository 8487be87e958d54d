import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-BGCLXP5O.js";import"./chunks/chunk-IVTA2RQT.js";import"./chunks/chunk-XQCYQ7BV.js";import"./chunks/chunk-JNWCXACB.js";import{a as o}from"./chunks/chunk-3JULWVZE.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-UCXDIBA5.js";import"./chunks/chunk-OXAQ6FNM.js";import"./chunks/chunk-4UK4QWW5.js";import"./chunks/chunk-AGOBB62V.js";import"./chunks/chunk-XBPPTJU7.js";await o(i,t);
