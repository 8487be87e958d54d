import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-TAWC3TLH.js";import"./chunks/chunk-QYERGTCH.js";import{a as o}from"./chunks/chunk-IJVUPXRS.js";import"./chunks/chunk-SNBZOZBX.js";import"./chunks/chunk-WP4UVMJV.js";import"./chunks/chunk-MPK6L5VR.js";import"./chunks/chunk-CCUMUQ2Z.js";import"./chunks/chunk-SKUA5T56.js";import"./chunks/chunk-3EXRINAX.js";import"./chunks/chunk-AGOBB62V.js";import"./chunks/chunk-YS6ZMVJH.js";import"./chunks/chunk-XBPPTJU7.js";await o(i,t);
